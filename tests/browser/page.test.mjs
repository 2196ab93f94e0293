// tests/browser/page.test.mjs — the article page as a reader gets it from build/site: it loads
// cleanly (no console error, no failed request, nothing from another origin), every figure
// canvas draws and is labelled, the idle page stops drawing, its math is rendered HTML, and the
// worked example shows the lesson's numbers, computed by the core in the page.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { canvasInk, openWatched, screenshotPath, serve, settled, site, state, until, useBrowser } from './helpers.mjs';

const env = useBrowser({ ownContexts: true });

test('the page loads cleanly, every figure draws, then the idle page draws nothing', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1000, height: 900 } });
  const { page, problems } = await openWatched(context, env.url);
  const names = await page.evaluate(() => window.lookback.figures());
  const canvases = await page.evaluate(() => [...document.querySelectorAll('canvas[data-figure]')].map((c) => c.dataset.figure));
  assert.deepEqual(names.sort(), canvases.sort(), 'every canvas has a running figure');
  assert.ok(names.includes('worked-example'));
  // Readable without sight: every canvas is labelled and has a text alternative beside it.
  const unreadable = await page.evaluate(() => [...document.querySelectorAll('canvas[data-figure]')]
    .filter((c) => !(c.getAttribute('aria-label') || '').trim() || !document.querySelector(`[data-figure-alt="${c.dataset.figure}"]`))
    .map((c) => c.dataset.figure));
  assert.deepEqual(unreadable, [], 'canvases without an aria-label or a [data-figure-alt] element');
  for (const name of names) {
    await page.locator(`canvas[data-figure="${name}"]`).scrollIntoViewIfNeeded();
    await settled(page, name);
    const ink = await canvasInk(page, name);
    assert.ok(ink.differing > 500 && ink.colours > 8, `${name} drew something: ${JSON.stringify(ink)}`);
  }

  // Then idle: nothing moves, so nothing draws. Background work (a worker checking the shipped
  // models at load) may redraw a figure when it finishes: a frame or two, never a stream.
  const count = () => page.evaluate((all) => all.map((n) => window.lookback.frames(n)), names);
  const before = await count();
  await page.waitForTimeout(2000);
  const drawn = (await count()).map((n, i) => n - before[i]);
  assert.ok(drawn.every((n) => n <= 4), `frames drawn while idle by ${names.join(', ')}: ${drawn}`);

  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: screenshotPath('page-top-dpr1.png') });
  assert.deepEqual(problems, []);
  await context.close();
});

test('each figure opens at the height it then fits itself to, on a desktop and on a phone', async () => {
  // style.css gives each canvas its first height; a wrong one moves the article when the figure
  // first draws (and pushes a link's target away).
  for (const [width, where] of [[1280, '--wide'], [390, '--wide + 410 px × --slope']]) {
    const context = await env.browser.newContext({ viewport: { width, height: 900 } });
    const { page, problems } = await openWatched(context, env.url);
    const names = await page.evaluate(() => window.lookback.figures());
    const wrong = [];
    for (const name of names) {
      await page.locator(`canvas[data-figure="${name}"]`).scrollIntoViewIfNeeded();
      await settled(page, name);
      // The first height: a copy of the canvas, which no figure draws into, beside it.
      const [first, fitted] = await page.evaluate((name) => {
        const canvas = document.querySelector(`canvas[data-figure="${name}"]`);
        const copy = canvas.cloneNode();
        copy.removeAttribute('style');
        copy.removeAttribute('id');
        canvas.after(copy);
        const heights = [copy.getBoundingClientRect().height, canvas.getBoundingClientRect().height];
        copy.remove();
        return heights;
      }, name);
      if (Math.abs(first - fitted) > 2) wrong.push(`${name}: opens at ${first.toFixed(1)} px, fits itself to ${fitted} px`);
    }
    assert.deepEqual(wrong, [], `at ${width} px wide (style.css: ${where})`);
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('math is rendered at build time and nothing is left to typeset', async () => {
  const context = await env.browser.newContext();
  const { page, problems } = await openWatched(context, env.url);
  const math = await page.evaluate(() => ({
    katex: document.querySelectorAll('.katex').length,
    raw: /\\\(|\\\[/.test(document.body.innerText),
    errors: document.querySelectorAll('.katex-error').length,
  }));
  assert.ok(math.katex > 0, 'KaTeX spans are in the page');
  assert.equal(math.raw, false, 'no unrendered \\( or \\[ in the text');
  assert.equal(math.errors, 0);
  await page.evaluate(() => document.fonts.ready);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the worked example shows the lesson\'s numbers, computed at run time', async () => {
  const context = await env.browser.newContext({ deviceScaleFactor: 2, viewport: { width: 900, height: 800 } });
  const { page, problems } = await openWatched(context, env.url);
  await page.locator('canvas[data-figure="worked-example"]').scrollIntoViewIfNeeded();
  await settled(page, 'worked-example');
  const s = await state(page, 'worked-example');
  const round = (values) => values.map((v) => Number(v.toFixed(3)));
  assert.deepEqual(round(s.weights), [0.368, 0.183, 0.449]);
  assert.deepEqual(round(s.context), [0.817, 0.632]);
  assert.deepEqual(round(s.exps), [2.46, 1.221, 3.004]);
  assert.equal(Number(s.denominator.toFixed(3)), 6.685);

  // Readable without the canvas: a label, and a text alternative the figure keeps current.
  const canvas = page.locator('canvas[data-figure="worked-example"]');
  assert.ok((await canvas.getAttribute('aria-label')).length > 20);
  const text = await page.locator('[data-figure-alt="worked-example"]').textContent();
  for (const number of ['0.368', '0.183', '0.449', '6.685', '(0.817, 0.632)']) assert.ok(text.includes(number), `text alternative has ${number}`);

  const box = await canvas.boundingBox();
  const ink = await canvasInk(page, 'worked-example');
  assert.equal(ink.width, Math.round(box.width * 2), 'backing store at devicePixelRatio 2');
  await canvas.screenshot({ path: screenshotPath('worked-example-dpr2.png') });
  assert.deepEqual(problems, []);
  await context.close();
});

test('the Content-Security-Policy lets the page run and refuses an inline script', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1000, height: 900 } });
  const { page, problems } = await openWatched(context, env.url);
  const policy = await page.evaluate(() => document.querySelector('meta[http-equiv="Content-Security-Policy"]').content);
  assert.match(policy, /script-src 'self' 'wasm-unsafe-eval';/);
  const scripts = policy.split(';').find((d) => d.trim().startsWith('script-src'));
  assert.ok(!scripts.includes("'unsafe-inline'") && !scripts.includes(" 'unsafe-eval'"), `no inline script, no eval: ${scripts}`);
  // The page runs under it: wasm compiled, figures answer (openWatched saw no error so far).
  assert.ok((await page.evaluate(() => window.lookback.figures())).length >= 7);
  const violations = [];
  page.on('console', (message) => { if (/Content Security Policy/.test(message.text())) violations.push(message.text()); });
  const ran = await page.evaluate(() => new Promise((resolve) => {
    const script = document.createElement('script');
    script.textContent = 'window.injected = true;';
    document.body.append(script);
    setTimeout(() => resolve(window.injected === true), 200);
  }));
  assert.equal(ran, false, 'an inline script does not run');
  assert.ok(violations.length >= 1, 'the browser reports the refusal');
  // The refusals are the only console errors.
  assert.deepEqual(problems.filter((p) => !/Content Security Policy/.test(p)), []);
  await context.close();
});

// Sections away from the viewport are laid out only when they come near (content-visibility in
// style.css), sized until then by an estimate: a link into the page must still land on its
// target, and stay there while the sections and figures around it are laid out and drawn.
test('a link to a place deep in the article lands on it', async () => {
  for (const width of [1280, 390]) {
    for (const target of ['bottleneck-figure', 'published-title', 'transformer-shipped-curve', 'c-bilinear']) {
      const context = await env.browser.newContext({ viewport: { width, height: 900 } });
      const { page, problems } = await openWatched(context, `${env.url}#${target}`);
      const where = () => page.evaluate((id) => {
        const element = document.getElementById(id);
        return { top: element.getBoundingClientRect().top, margin: parseFloat(getComputedStyle(element).scrollMarginTop) };
      }, target);
      // Until nothing moves for half a second (fonts, figures fitting their heights).
      let last = null;
      await until(`#${target} to stay put`, async () => {
        const now = await where();
        const still = last !== null && now.top === last.top;
        last = now;
        if (!still) await page.waitForTimeout(500);
        return still;
      }, 15000);
      assert.ok(Math.abs(last.top - last.margin) <= 2, `${width} px: #${target} is ${last.top} px from the top of the viewport (${last.margin} expected)`);
      assert.ok(await page.locator(`#${target}`).isVisible(), `${width} px: #${target} is visible`);
      assert.deepEqual(problems, []);
      await context.close();
    }
  }
});

// A section's estimate (style.css) must not fall short of its height: a figure scrolled to would
// lie past the section's estimated end, the section would never be laid out and its figures never
// draw. Each section laid out in turn, its figures drawn, at a desktop's and a phone's width.
test('every section is at most as tall as its estimate', async () => {
  for (const width of [1280, 390]) {
    const context = await env.browser.newContext({ viewport: { width, height: 900 } });
    const { page, problems } = await openWatched(context, env.url);
    const short = await page.evaluate(async () => {
      const out = [];
      for (const section of document.querySelectorAll('article > section')) {
        const style = getComputedStyle(section);
        const estimate = parseFloat(style.getPropertyValue('--estimate'));
        if (!estimate) continue;
        section.scrollIntoView();
        await new Promise((resolve) => setTimeout(resolve, 500));
        const height = section.getBoundingClientRect().height;
        const allowed = estimate * (parseFloat(style.getPropertyValue('--wraps')) || 1);
        if (height > allowed) out.push(`#${section.id}: ${Math.round(height)} px, estimated ${Math.round(allowed)}`);
      }
      return out;
    });
    assert.deepEqual(short, [], `${width} px`);
    assert.deepEqual(problems.filter((m) => !m.startsWith('request failed')), []);
    await context.close();
  }
});

// The wasm is preloaded while the article is parsed, and the glue's own request must take the
// preloaded response (a preload whose mode differs from the glue's fetch is downloaded twice).
test('the figures\' module is downloaded once, from before the article is parsed', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const fetched = [];
  page.on('request', (request) => { if (request.url().endsWith('/lookback_web.wasm')) fetched.push(request.url()); });
  await page.goto(`${env.url}#bottleneck-figure`);
  await until('the figure the link lands on to draw', () => page.evaluate(() => window.lookback !== undefined && window.lookback.frames('bottleneck') > 0));
  const timing = await page.evaluate(() => ({
    wasm: performance.getEntriesByType('resource').find((e) => e.name.endsWith('/lookback_web.wasm')).startTime,
    parsed: performance.getEntriesByType('navigation')[0].domInteractive,
  }));
  assert.equal(fetched.length, 1, `lookback_web.wasm requested ${fetched.length} times`);
  assert.ok(timing.wasm < timing.parsed, `the wasm was requested at ${timing.wasm} ms, parsing ended at ${timing.parsed} ms`);
  await context.close();
});

test('without its module the page keeps its text and folds the empty canvases away', async (t) => {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'lookback-no-module-'));
  fs.cpSync(site, copy, { recursive: true });
  fs.rmSync(path.join(copy, 'lookback_web.wasm'));
  const server = await serve(copy);
  t.after(() => { server.close(); fs.rmSync(copy, { recursive: true, force: true }); });
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors = [], uncaught = [];
  page.on('console', (message) => { if (message.type() === 'error') errors.push(message.text()); });
  page.on('pageerror', (error) => uncaught.push(error.message));
  await page.goto(`${server.url}#bottleneck-figure`);
  await until('every canvas to fold', () => page.evaluate(() =>
    [...document.querySelectorAll('canvas[data-figure]')].every((c) => c.hasAttribute('data-figure-failed') && c.getBoundingClientRect().height === 0)));
  assert.ok(errors.some((e) => /the figure module did not start/.test(e)), `console errors: ${errors.join(' | ')}`);
  assert.deepEqual(uncaught, []);
  assert.equal(await page.evaluate(() => window.lookback), undefined);
  assert.ok(await page.locator('#bottleneck-text').count() === 1 && /encoder/.test(await page.locator('#bottleneck-text').textContent()));
  await context.close();
});

// tests/browser/mechanism.test.mjs — the mechanism section (<section id="mechanism">): the worked
// example's lengths and cosines and its temperature slider (by mouse, by button, by URL, and bad
// URL values refused by name), the numbers its prose states, the illustrative sentence alignment,
// the scaled-dot self-check question, and screenshots at 1280 and 390 px. Every number is checked
// against a computation written here, not against the core's own output.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clickWidget, openWatched, rect, screenshotPath, settled, state, until, useBrowser } from './helpers.mjs';

const figure = 'worked-example';
const env = useBrowser();

// --- independent arithmetic ----------------------------------------------------------------
const dot = (a, b) => a.reduce((sum, x, i) => sum + x * b[i], 0);
const length = (a) => Math.sqrt(dot(a, a));
function softmax(scores, temperature) {
  const exps = scores.map((e) => Math.exp(e / temperature));
  const sum = exps.reduce((x, y) => x + y, 0);
  return exps.map((x) => x / sum);
}
function assertClose(actual, expected, tolerance, what) {
  assert.equal(actual.length, expected.length, `${what}: length`);
  actual.forEach((x, i) => assert.ok(Math.abs(x - expected[i]) <= tolerance, `${what}[${i}]: ${x} vs ${expected[i]}`));
}
// The figure's weights are the softmax of its own scores at its own temperature.
function assertSoftmax(s, what) {
  assertClose(s.weights, softmax(s.scores, s.temperature), 1e-9, `${what}: weights = softmax(e / T)`);
  const context = s.s.map((_, d) => s.encoder_states.reduce((sum, h, i) => sum + s.weights[i] * h[d], 0));
  assertClose(s.context, context, 1e-9, `${what}: context`);
}
const seedS = [0.9, 0.2], seedHs = [[1, 0], [0, 1], [1, 1]];
const seedScores = seedHs.map((h) => dot(seedS, h));

async function openFigure(context, query = '') {
  const watched = await openWatched(context, env.url + query);
  await watched.page.locator(`canvas[data-figure="${figure}"]`).scrollIntoViewIfNeeded();
  await settled(watched.page, figure);
  return watched;
}
const prose = (page, id) => page.locator(`#${id}`).textContent();
const oneLine = (text) => text.replace(/\s+/g, ' ');

test('each state\'s length and cosine: h1 is closest in direction, h3 wins by length, as the prose says', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const { page, problems } = await openFigure(context);
  const s = await state(page, figure);
  const lengths = seedHs.map(length);
  const cosines = seedHs.map((h) => dot(seedS, h) / (length(seedS) * length(h)));
  assertClose(s.lengths, lengths, 1e-12, 'lengths');
  assertClose(s.cosines, cosines, 1e-12, 'cosines');
  assert.ok(cosines[0] > cosines[2] && seedScores[2] > seedScores[0], 'the prose\'s point holds for these numbers');
  const text = oneLine(await prose(page, 'worked-example-prose'));
  for (const number of [cosines[0], cosines[2], lengths[2]].map((x) => x.toFixed(3))) {
    assert.ok(text.includes(number), `the worked example's prose states ${number}: ${text}`);
  }
  assert.ok(!/most nearly the way/.test(text), 'the old claim about direction is gone');
  const alternative = await page.locator(`[data-figure-alt="${figure}"]`).textContent();
  for (const number of ['0.976', '0.844', '1.414']) assert.ok(alternative.includes(number), `text alternative has ${number}`);

  // A zero state has no direction: its cosine is shown as a dash and reported as null.
  const zero = await openFigure(context, '?we.h2=0,0');
  const z = await state(zero.page, figure);
  assert.equal(z.cosines[1], null);
  assert.equal(z.lengths[1], 0);
  assertSoftmax(z, 'with a zero state');
  assert.deepEqual([...problems, ...zero.problems], []);
  await context.close();
});

test('the temperature slider, by mouse: the weights follow softmax(e / T), sharper below 1, flatter above', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const { page, problems } = await openFigure(context);
  const start = await state(page, figure);
  assert.equal(start.temperature, 1);
  assertSoftmax(start, 'at τ = 1');

  const r = await rect(page, figure, 'temperature');
  assert.ok(r, 'the slider recorded its rectangle');
  const spread = (w) => Math.max(...w) - Math.min(...w);
  for (const [fraction, hotter] of [[0.85, true], [0.1, false]]) {
    await page.mouse.click(r.x + r.width * fraction, r.y + r.height / 2);
    await until('the temperature to move', async () => {
      const t = (await state(page, figure)).temperature;
      return hotter ? t > 1.5 : t < 0.5;
    });
    await settled(page, figure);
    const s = await state(page, figure);
    assertSoftmax(s, `at τ = ${s.temperature}`);
    assertClose(s.scores, seedScores, 1e-12, 'the scores themselves do not change');
    if (hotter) assert.ok(spread(s.weights) < spread(start.weights), `τ = ${s.temperature} flattens: ${s.weights}`);
    else assert.ok(s.weights[2] > start.weights[2] + 0.1, `τ = ${s.temperature} sharpens towards h3: ${s.weights}`);
    await until('the URL to keep T', async () => Number(new URL(page.url()).searchParams.get('we.T')) === s.temperature);
  }

  // The √d button: τ = √2, the scaled dot product at d = 2, with the weights the prose states.
  await clickWidget(page, figure, 'temperature-sqrt-d');
  await until('τ = √2', async () => Math.abs((await state(page, figure)).temperature - Math.SQRT2) < 1e-12);
  const scaled = await state(page, figure);
  assertSoftmax(scaled, 'at τ = √2');
  const expected = softmax(seedScores, Math.SQRT2).map((w) => w.toFixed(3));
  const text = oneLine(await prose(page, 'scaled-dot-prose'));
  assert.ok(text.includes(`${expected[0]}, ${expected[1]} and ${expected[2]}`), `the prose states ${expected}: ${text}`);
  await clickWidget(page, figure, 'temperature-one');
  await until('τ = 1 again', async () => (await state(page, figure)).temperature === 1);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the temperature in the URL: good values are used, as the prose states; bad ones are refused by name', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const seen = [];
  const claims = [];
  for (const t of [0.5, 4]) {
    const watched = await openFigure(context, `?we.T=${t}`);
    seen.push(watched);
    const s = await state(watched.page, figure);
    assert.equal(s.temperature, t);
    assert.deepEqual(s.url_messages, []);
    assertSoftmax(s, `we.T=${t}`);
    claims.push(softmax(seedScores, t)[2].toFixed(3));
    const alternative = await watched.page.locator(`[data-figure-alt="${figure}"]`).textContent();
    assert.ok(alternative.includes(`τ = ${t.toFixed(2)}`), 'the text alternative names τ');
  }
  const text = oneLine(await prose(seen[0].page, 'temperature-prose'));
  // KaTeX renders "τ = 0.5" as math, so the test reads the numbers around it.
  assert.ok(text.includes(`gets ${claims[0]} of the weight at`) && text.includes(`and ${claims[1]} at`),
            `the prose states h3's weight at τ = 0.5 and 4 (${claims}): ${text}`);

  for (const bad of ['0', '-1', '10.5', 'abc', 'nan', 'inf', '1e999', '0x1']) {
    const watched = await openFigure(context, `?we.T=${encodeURIComponent(bad)}&we.step=2`);
    seen.push(watched);
    const s = await state(watched.page, figure);
    assert.ok(s.url_messages.some((m) => m.includes(`we.T='${bad}'`) && /default/.test(m)),
              `a message names we.T='${bad}': ${s.url_messages}`);
    assert.equal(s.temperature, 1, 'the default stays');
    assert.equal(s.step, 2, 'the other key is still read');
    assertSoftmax(s, `after we.T=${bad}`);
  }
  assert.deepEqual(seen.flatMap((w) => w.problems), []);
  await context.close();
});

test('the sentence alignment: marked illustrative, rows of weights summing to 1, the expected pairs darkest', async () => {
  for (const scheme of ['light', 'dark']) {
    const context = await env.browser.newContext({ viewport: { width: 390, height: 900 }, colorScheme: scheme });
    const { page, problems } = await openWatched(context, env.url);
    const map = page.locator('#mechanism #sentence-alignment');
    assert.equal(await map.getAttribute('data-illustrative'), 'true');
    assert.match(oneLine(await map.locator('figcaption').textContent()), /^Illustrative weights, not a trained model\./);
    const table = await map.locator('table').evaluate((t) => ({
      columns: [...t.tHead.querySelectorAll('th')].map((th) => th.textContent),
      rows: [...t.tBodies[0].rows].map((row) => ({
        word: row.cells[0].textContent,
        weights: [...row.cells].slice(1).map((c) => Number(c.textContent)),
        backgrounds: [...row.cells].slice(1).map((c) => getComputedStyle(c).backgroundColor),
      })),
      overflow: t.parentElement.scrollWidth - t.parentElement.clientWidth,
    }));
    assert.deepEqual(table.columns, ['le', 'chat', "s'est", 'assis', 'sur', 'le', 'tapis']);
    assert.deepEqual(table.rows.map((r) => r.word), ['the', 'cat', 'sat', 'on', 'the', 'mat']);
    const top = (r) => table.columns[r.weights.indexOf(Math.max(...r.weights))];
    const row = (word) => table.rows.find((r) => r.word === word);
    assert.equal(top(row('cat')), 'chat');
    assert.equal(top(row('mat')), 'tapis');
    const sat = [...row('sat').weights].map((w, i) => [w, table.columns[i]]).sort((a, b) => b[0] - a[0]);
    assert.deepEqual([sat[0][1], sat[1][1]].sort(), ['assis', "s'est"], 'sat draws on s\'est and assis');
    // Each row a distribution; each cell's tint darker (light) or brighter (dark) with its weight.
    const luminance = (css) => {
      const [r, g, b] = css.match(/[\d.]+/g).slice(0, 3).map(Number);
      return 0.2126 * r + 0.7152 * g + 0.0722 * b;
    };
    for (const r of table.rows) {
      assert.ok(Math.abs(r.weights.reduce((a, b) => a + b, 0) - 1) < 1e-9, `${r.word}: the weights add up to 1`);
      const order = r.weights.map((w, i) => [w, luminance(r.backgrounds[i])]).sort((a, b) => a[0] - b[0]);
      for (let i = 1; i < order.length; i++) {
        if (order[i][0] === order[i - 1][0]) continue;
        const further = scheme === 'light' ? order[i][1] < order[i - 1][1] : order[i][1] > order[i - 1][1];
        assert.ok(further, `${scheme}, ${r.word}: weight ${order[i][0]} is tinted apart from ${order[i - 1][0]}`);
      }
    }
    assert.ok(table.overflow <= 0, `the map fits a phone without scrolling (${table.overflow} px over)`);
    await map.scrollIntoViewIfNeeded();
    await map.screenshot({ path: screenshotPath(`mechanism-sentence-alignment-390-${scheme}.png`) });
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('self-check: the scaled dot score QKᵀ/√d_k, computed here from the prompt, is accepted', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const { page, problems } = await openWatched(context, env.url);
  await page.waitForSelector('#self-check[data-computations="ready"]');
  const form = page.locator('#c-scaled-dot');
  const prompt = await form.locator('.prompt').textContent();
  const [q, k1, k2] = [...prompt.matchAll(/\((-?\d+), (-?\d+), (-?\d+), (-?\d+)\)/g)].map((m) => m.slice(1).map(Number));
  assert.ok(q && k1 && k2, `a query and two keys in: ${prompt}`);
  const entry = Number(prompt.match(/entry (\d)/)[1]);
  const expected = dot(q, entry === 1 ? k1 : k2) / Math.sqrt(4);
  await form.locator('input').fill(String(expected + 0.5));
  await form.locator('button[type="submit"]').click();
  assert.equal(await form.getAttribute('data-result'), 'wrong');
  await form.locator('.fresh').click();
  const fresh = await form.locator('.prompt').textContent();
  const [fq, f1, f2] = [...fresh.matchAll(/\((-?\d+), (-?\d+), (-?\d+), (-?\d+)\)/g)].map((m) => m.slice(1).map(Number));
  const answer = dot(fq, Number(fresh.match(/entry (\d)/)[1]) === 1 ? f1 : f2) / 2;
  await form.locator('input').fill(String(answer));
  await form.locator('button[type="submit"]').click();
  assert.equal(await form.getAttribute('data-result'), 'right');
  assert.match(await form.locator('.verdict').textContent(), /√d_k = √4 = 2/);
  assert.deepEqual(problems, []);
  await context.close();
});

// Screenshots of the section to look at: 1280 and 390 px light, 1280 dark; the figure at T = 0.5.
for (const [width, scheme] of [[1280, 'light'], [390, 'light'], [1280, 'dark']]) {
  test(`mechanism screens: ${width} px, ${scheme}`, async () => {
    const context = await env.browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme });
    const { page, problems } = await openFigure(context, '?we.T=0.5&we.step=2');
    const canvas = page.locator(`canvas[data-figure="${figure}"]`);
    await canvas.screenshot({ path: screenshotPath(`mechanism-worked-example-${width}-${scheme}.png`) });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `nothing is wider than the screen (${overflow} px too wide)`);
    const [top, bottom] = await page.evaluate(() => {
      const r = document.getElementById('mechanism').getBoundingClientRect();
      return [r.top + window.scrollY, r.bottom + window.scrollY];
    });
    await page.setViewportSize({ width, height: Math.ceil(bottom - top) });
    await page.evaluate((y) => window.scrollTo(0, y), top);
    await settled(page, figure);
    const height = Math.ceil(bottom - top);
    for (let y = 0, piece = 1; y < height; y += 1500, piece++) {
      await page.screenshot({
        path: screenshotPath(`mechanism-${width}-${scheme}-${piece}.png`),
        clip: { x: 0, y, width, height: Math.min(1500, height - y) },
      });
    }
    assert.deepEqual(problems, []);
    await context.close();
  });
}

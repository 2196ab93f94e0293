// tests/engines/smoke.mjs — the smoke set every engine runs (firefox.test.mjs, webkit.test.mjs),
// on one page load but for the 390 px frame and the offline reload: the module starts; every
// figure draws (ink, counted by tests/browser/helpers.mjs's inkInPage); Train, pressed on the
// training figure's mirror (web/page/mirror.js), trains an epoch in Web Workers; a real click on
// the alignment map selects the clicked row; a date typed (real keys) into the map's field
// decodes; the self-check answers; Figure 1 draws again after the engine took its WebGL context
// (seven more live contexts: WebKit takes the least recently drawn past 16); at 390 px (an
// iframe: MiniBrowser's window is never narrower than 447 px) nothing is wider than the screen;
// with the server gone the page reloads from its service worker and draws; and nothing the page
// asked the server for failed (no 404), nothing logged an error. The Chromium suite
// (tests/browser/) tests all of this and much more; this set is what must also hold in the
// engines of Safari and Firefox. What it measures on the way (the module's start, each figure's
// first drawing, the epoch's examples per second) it prints. A link carrying a reader's task of
// 3,000 pairs in its fragment opens to it; that page is the one reloaded offline.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import path from 'node:path';
import { taskLinkValue, spellingText } from '../browser/generated_pairs.mjs';
import { inkInPage, shippedFailures } from '../browser/helpers.mjs';
import { logs, serveLogged, site, sleep, startXvfb, until } from './helpers.mjs';

// In the page: every error the page logs or throws from now on, in window.smokeErrors (a
// WebKitWebDriver session reports none of them itself), and every WebGL context lost or restored,
// in window.smokeContexts (a lost context that is never restored is a figure that stops drawing
// and says nothing).
function watchErrors() {
  if (window.smokeErrors) return;
  window.smokeErrors = [];
  window.smokeContexts = [];
  for (const canvas of document.querySelectorAll('canvas[data-figure]')) {
    for (const type of ['webglcontextlost', 'webglcontextrestored']) {
      canvas.addEventListener(type, () => window.smokeContexts.push(`${canvas.dataset.figure}: ${type.slice(12)}`));
    }
  }
  const original = console.error;
  console.error = (...args) => { window.smokeErrors.push(args.map(String).join(' ')); original.apply(console, args); };
  addEventListener('error', (event) => window.smokeErrors.push(`error: ${event.message}`));
  addEventListener('unhandledrejection', (event) => window.smokeErrors.push(`unhandled rejection: ${event.reason}`));
}

// In the page: scrolls figure `name`'s canvas to the middle of the viewport, then waits two
// animation frames (the observers report after a frame).
function scrollTo(name) {
  const canvas = document.querySelector(name.startsWith('#') ? name : `canvas[data-figure="${name}"]`);
  canvas.scrollIntoView({ block: 'center' });
  return new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(true))));
}

// In the page: a control of figure `name`'s mirror, the real element named `label` (its text or
// aria-label), focused (a text field's contents selected) or, with `press`, clicked. False while
// the figure has not drawn it.
function mirrorControl(name, label, press = false) {
  const mirror = document.querySelector(`canvas[data-figure="${name}"]`).previousElementSibling;
  if (!mirror?.classList.contains('figure-mirror')) return false;
  const control = [...mirror.querySelectorAll('button, input')].find((e) =>
    (e.getAttribute('aria-label') ?? e.textContent.trim()) === label);
  if (!control) return false;
  control.focus();
  if (control.type === 'text') control.select();
  if (press) control.click();
  return document.activeElement === control;
}

// In the page: a 390 × 844 iframe of the page at `url`; once its first figures have drawn and
// it has been scrolled to the end and back (laying out every section), how far its page is wider
// than its viewport, and the widest canvas.
async function narrowFrame(url) {
  const frame = document.createElement('iframe');
  frame.style.cssText = 'position: fixed; left: 0; top: 0; width: 390px; height: 844px; border: 0; z-index: 10';
  frame.src = url;
  document.body.append(frame);
  const wait = async (what, predicate, timeout) => {
    const end = performance.now() + timeout;
    while (!predicate()) {
      if (performance.now() > end) throw new Error(`the 390 px frame: timed out waiting for ${what}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  try {
    await wait('the module', () => frame.contentWindow?.lookback !== undefined, 30000);
    const inner = frame.contentWindow;
    const errors = [];
    const original = inner.console.error;
    inner.console.error = (...args) => { errors.push(args.map(String).join(' ')); original.apply(inner.console, args); };
    inner.addEventListener('error', (event) => errors.push(`error: ${event.message}`));
    const doc = inner.document.documentElement;
    const frame2 = () => new Promise((resolve) => inner.requestAnimationFrame(() => inner.requestAnimationFrame(resolve)));
    for (let y = 0; y <= doc.scrollHeight; y += 800) {
      inner.scrollTo(0, y);
      await frame2();
    }
    // Figure 1, below the opening text at this width, draws in the narrow frame too.
    const first = inner.document.querySelector('canvas[data-figure="bottleneck"]');
    inner.scrollTo(0, first.getBoundingClientRect().top + inner.scrollY - 100);
    await frame2();
    await wait('Figure 1', () => inner.lookback.frames('bottleneck') > 0, 30000);
    const canvases = [...inner.document.querySelectorAll('canvas[data-figure]')].map((c) => c.getBoundingClientRect().right);
    return { innerWidth: inner.innerWidth, overflow: doc.scrollWidth - doc.clientWidth, widest: Math.max(...canvases), errors };
  } finally {
    frame.remove();
  }
}

// In the page: what a figure that does not draw looks like from the page (and, in a site built
// with a trace of the module's calls in window.lookbackTrace, those calls for it).
function drawDiagnosis(name) {
  const canvas = document.querySelector(`canvas[data-figure="${name}"]`);
  const box = canvas.getBoundingClientRect();
  const index = window.lookback.figures().indexOf(name);
  return {
    frames: window.lookback.frames(name), failed: canvas.dataset.figureFailed !== undefined,
    box: [box.left, box.top, box.width, box.height], store: [canvas.width, canvas.height],
    viewport: [innerWidth, innerHeight, scrollY], visibility: document.visibilityState,
    contexts: window.smokeContexts, trace: window.lookbackTrace?.filter((call) => call[2] === index),
  };
}

const state = (driver, name) => driver.run((n) => window.lookback.state(n), name);
const frames = (driver, name) => driver.run((n) => window.lookback.frames(n), name);
const rect = (driver, name, widget) => driver.run((n, w) => {
  const r = window.lookback.rect(n, w);
  return r && { ...r };
}, name, widget);

// Registers the smoke set for one engine: `launch(display)` starts its driver (helpers.mjs).
export function smokeSet(engine, launch) {
  const log = path.join(logs, `engines-${engine.toLowerCase()}-server.log`);
  const xlog = path.join(logs, `engines-${engine.toLowerCase()}-xvfb.log`);
  let xvfb, server, driver, url, serverGone = false;
  const failuresBeforeOffline = [];
  const errors = [];  // what each page logged, gathered before the driver leaves it
  const contexts = [];  // WebGL contexts lost or restored, likewise
  const gatherErrors = async () => {
    const [e, c] = await driver.run(() => [window.smokeErrors?.splice(0) ?? [], window.smokeContexts?.splice(0) ?? []]);
    errors.push(...e);
    contexts.push(...c);
  };
  const note = (t, text) => t.diagnostic(`${engine}: ${text}`);
  // Waits for the page to finish loading its shipped models; every one must load.
  const shippedSettled = async (where) =>
    assert.deepEqual(await shippedFailures((fn) => driver.run(fn)), [], `every shipped model loads (${where})`);

  before(async () => {
    xvfb = await startXvfb(xlog);
    server = await serveLogged(site, log);
    url = `${server.url}?tr.width=8&tr.epochs=1`;
    driver = await launch(xvfb.display);
  });
  after(async () => {
    await driver?.close();
    if (!serverGone) await server?.close();
    await xvfb?.close();
  });

  test('the module starts', { timeout: 60000 }, async (t) => {
    note(t, `${driver.version} on Xvfb ${xvfb.display}`);
    const opened = Date.now();
    await driver.goto(url);
    await until('window.lookback', () => driver.run(() => window.lookback !== undefined), 30000, 50);
    await driver.run(watchErrors);
    note(t, `module up ${Date.now() - opened} ms after the page was asked for`);
    const figures = await driver.run(() => window.lookback.figures());
    assert.equal(figures.length, 10, `every figure is attached: ${figures}`);
    assert.deepEqual(await driver.run(() => [...document.querySelectorAll('canvas[data-figure-failed]')].map((c) => c.dataset.figure)), [],
      'no figure failed');
  });

  test('every figure draws', { timeout: 300000 }, async (t) => {
    for (const name of await driver.run(() => window.lookback.figures())) {
      const from = Date.now();
      await driver.run(scrollTo, name);
      await until(`${name} to draw`, async () => (await frames(driver, name)) > 0, 60000)
        .catch(async (error) => { throw new Error(`${error.message}: ${JSON.stringify(await driver.run(drawDiagnosis, name))}`); });
      let ink;
      await until(`${name} to show ink`, async () => {
        ink = await driver.run(inkInPage, name);
        return ink.differing > 500 && ink.colours > 8;
      }, 30000, 250).catch((error) => { throw new Error(`${error.message}: ${JSON.stringify(ink)}`); });
      note(t, `${name} drew in ${Date.now() - from} ms (${ink.width} × ${ink.height}, ${ink.colours} colours)`);
    }
  });

  // What the engine tells a screen reader. Figure 2's temperature slider is a valid
  // entry at 1 and at √2 (a float step put its value off the step's grid: Firefox said "invalid
  // entry"); the self-check's live regions are rendered while empty (Firefox does not speak a live
  // region that appears with its text; display: none while empty silenced the verdict).
  test('the temperature slider is valid; the self-check\'s live regions are rendered while empty', { timeout: 60000 }, async () => {
    await driver.run(scrollTo, 'worked-example');
    const slider = () => driver.run(() => {
      const e = document.querySelector('.figure-mirror input[aria-label="temperature τ"]');
      return e && { valid: e.validity.valid, value: Number(e.value) };
    });
    await until('the temperature slider', async () => (await slider())?.value === 1, 30000);
    assert.equal((await slider()).valid, true, 'temperature 1');
    await until('τ = √2 pressed', () => driver.run(mirrorControl, 'worked-example', 'τ = square root of d = square root of 2', true), 10000);
    await until('the slider at √2', async () => Math.abs((await slider()).value - Math.SQRT2) < 0.01, 10000);
    assert.equal((await slider()).valid, true, 'temperature √2');
    assert.deepEqual(await driver.run(() => ['#q-problem .verdict', '#self-check .quiz-score'].map((selector) =>
      getComputedStyle(document.querySelector(selector)).display)), ['block', 'block']);
  });

  // Pressed by the element's click(): Firefox under WebDriver BiDi, its window never the active
  // one on a bare X server, gives a focused button the key events of Enter or Space but no click
  // (WebKit does click); the typed date below is real keys.
  test('Train, pressed on the mirror, trains an epoch in workers', { timeout: 300000 }, async (t) => {
    await driver.run(scrollTo, 'training');
    const from = Date.now();
    await until('the Train button in the mirror', () => driver.run(mirrorControl, 'training', 'Train', true), 30000);
    await until('training to start', async () => (await state(driver, 'training')).runs.some((r) => r.steps > 0), 30000, 250);
    await until('an epoch', async () => (await state(driver, 'training')).runs.every((r) => r.epochs.length >= 1), 240000, 500);
    const s = await state(driver, 'training');
    const placed = await driver.run(() => window.lookback.training());
    note(t, `an epoch of width 8 in ${((Date.now() - from) / 1000).toFixed(1)} s, ` +
      `${Math.round(s.examples_per_second)} examples/s in ${placed.workers} of ${placed.size} workers ` +
      `(cores: ${placed.reportedCores} said, ${placed.cores ?? 'not'} counted)`);
    assert.equal(placed.mode, 'workers');
    assert.equal(placed.mainThreadSlices, 0, 'the page\'s thread trained nothing');
  });

  test('a click on the alignment map selects the clicked row', { timeout: 120000 }, async () => {
    await driver.run(scrollTo, 'alignment');
    await until('the shipped model\'s map', async () => {
      const s = await state(driver, 'alignment');
      return s.output !== '' && s.weights?.length === 10;
    }, 60000, 250);
    const s = await state(driver, 'alignment');
    const row = s.selected_output === 8 ? 7 : 8;
    await until('the map drawn', async () => (await rect(driver, 'alignment', 'map')) !== null, 20000);
    const map = await rect(driver, 'alignment', 'map');
    await driver.click(map.x + (3.5 * map.width) / s.input.length, map.y + ((row + 0.5) * map.height) / 10);
    await until(`output ${row} selected by its cell`, async () => (await state(driver, 'alignment')).selected_output === row, 10000);
  });

  test('a date typed into the map\'s field decodes', { timeout: 120000 }, async () => {
    await until('the field in the mirror', () => driver.run(mirrorControl, 'alignment', 'a date to map'), 20000);
    await driver.type('The 4 of August, 2003');
    await driver.press('Enter');
    await until('the typed date\'s map', async () => {
      const s = await state(driver, 'alignment');
      return s.input === 'the 4 of august, 2003' && s.output === '2003-08-04';
    }, 60000, 250);
  });

  test('the self-check answers', { timeout: 60000 }, async () => {
    await driver.run(scrollTo, '#self-check');
    await until('the self-check\'s computations', () => driver.run(() =>
      document.querySelector('#self-check')?.dataset.computations === 'ready'), 30000);
    assert.ok(await driver.run(() => {
      const input = document.querySelector('#c-context input');
      input.focus();
      return document.activeElement === input;
    }));
    await driver.type('five');
    await driver.press('Enter');
    await until('the verdict', () => driver.run(() => document.querySelector('#c-context').dataset.result === 'invalid'), 10000);
  });

  // WebKit keeps 16 live WebGL contexts in a web process and, past that, takes the least recently
  // drawn one for good (Figure 1, drawn first and then left alone, stayed blank). Seven
  // contexts more than the page's ten (as another copy of the page in the same process would
  // hold): Figure 1, scrolled to, draws again (the page asks its context back, lookback.js).
  test('Figure 1 draws again after the engine took its WebGL context', { timeout: 60000 }, async (t) => {
    const before = await frames(driver, 'bottleneck');
    await driver.run(() => {
      window.smokeMoreContexts = Array.from({ length: 7 }, () => document.createElement('canvas').getContext('webgl2'));
    });
    // The engine says so a moment later (an engine with room for them takes none: 3 s at most).
    const taken = () => driver.run(() => window.smokeContexts.includes('bottleneck: lost'));
    for (const end = Date.now() + 3000; Date.now() < end && !(await taken());) await sleep(100);
    const wasTaken = await taken();
    await driver.run(scrollTo, 'bottleneck');
    // Its context live again and a frame drawn in it: a copy of the canvas alone could show the
    // pixels of before (WebKit keeps the image it last copied).
    await until('Figure 1 to draw in a live context', () => driver.run((name, drawn) =>
      !document.querySelector(`canvas[data-figure="${name}"]`).getContext('webgl2').isContextLost() &&
      window.lookback.frames(name) > drawn, 'bottleneck', wasTaken ? before : -1), 30000, 250)
      .catch(async (error) => { throw new Error(`${error.message}: ${JSON.stringify(await driver.run(drawDiagnosis, 'bottleneck'))}`); });
    let ink;
    await until('Figure 1 to show ink', async () => {
      ink = await driver.run(inkInPage, 'bottleneck');
      return ink.differing > 500 && ink.colours > 8;
    }, 30000, 250).catch((error) => { throw new Error(`${error.message}: ${JSON.stringify(ink)}`); });
    note(t, `contexts lost or restored so far: ${(await driver.run(() => window.smokeContexts)).join(', ') || 'none'}`);
  });

  // The narrow frame is the page's second copy: it opens in embed.html with no figure (a light page,
  // its refusal aside), so that the browser holds one copy's WebGL contexts at a time.
  test('at 390 px nothing is wider than the screen', { timeout: 120000 }, async () => {
    await gatherErrors();
    await driver.goto(`${server.url}embed.html?figure=none`);
    await driver.run(watchErrors);
    const narrow = await driver.run(narrowFrame, server.url);
    errors.push(...narrow.errors.map((e) => `in the 390 px frame: ${e}`));
    assert.equal(narrow.innerWidth, 390);
    assert.ok(narrow.overflow <= 0, `the page is ${narrow.overflow} px wider than 390 px`);
    assert.ok(narrow.widest <= 390, `a canvas reaches ${narrow.widest} px`);
  });

  // A teacher's link: 3,000 word pairs (made here as the page makes a link) in the address's
  // fragment, opened by a new page load (the smoke set's second copy of the page, which the offline
  // test goes on with): the page makes the task from it and says so. The fragment's length is
  // what the engine must keep (docs/own-pairs.md: each engine's measured limit).
  test('a link carrying 3,000 pairs in its fragment opens to them', { timeout: 120000 }, async (t) => {
    await gatherErrors();
    const value = taskLinkValue(spellingText(3000), 'words');
    await driver.goto(`${url}#own-pairs&pairs.task=${value}`);
    await until('window.lookback', () => driver.run(() => window.lookback !== undefined), 30000, 50);
    await driver.run(watchErrors);
    const said = () => driver.run(() => document.getElementById('own-pairs-status').textContent);
    await until('the link\'s task used', async () => (await said()).startsWith('From the link: 3,000 pairs read; 2,700 to train, 300 held out'),
      30000, 100).catch(async (error) => { throw new Error(`${error.message}: ${await said()}`); });
    assert.equal((await state(driver, 'training')).task, 'your-pairs');
    note(t, `a link of ${value.length} characters of pairs opened to them`);
  });

  // On the link's page, opened by the test before: reloaded offline, it trains on the link's task.
  test('with the server gone the page reloads from its service worker', { timeout: 180000 }, async (t) => {
    await until('the service worker to keep the site', () => driver.run(async () =>
      (await navigator.serviceWorker.getRegistration())?.active?.state === 'activated'), 60000, 250);
    // The reload would cancel the page's own loading (the shipped models, streaming from the
    // service worker, and the workers checking them), which Firefox logs as errors of the page that
    // goes: it finishes first. lookback.training() alone said 'settled' before the models were asked.
    await shippedSettled('online');
    await driver.run(watchErrors);
    failuresBeforeOffline.push(...server.failures());
    await server.close();
    serverGone = true;
    await gatherErrors();
    const from = Date.now();
    await driver.reload();
    await until('the module, offline', () => driver.run(() => window.lookback !== undefined), 60000, 100);
    await driver.run(watchErrors);
    assert.ok(await driver.run(() => navigator.serviceWorker.controller !== null), 'the service worker serves the page');
    await driver.run(scrollTo, 'bottleneck');
    await until('Figure 1 to draw offline', async () => (await driver.run(inkInPage, 'bottleneck')).differing > 500, 60000, 250);
    note(t, `reloaded offline and drew Figure 1 in ${Date.now() - from} ms`);
    // Every shipped model loads from the cache, and Train trains a batch in workers.
    await shippedSettled('offline');
    await driver.run(scrollTo, 'training');
    await until('the Train button in the mirror, offline', () => driver.run(mirrorControl, 'training', 'Train', true), 30000);
    await until('a batch trained offline', async () => (await state(driver, 'training')).runs.every((r) => r.steps > 0), 120000, 250);
    assert.equal((await driver.run(() => window.lookback.training())).mode, 'workers');
  });

  test('no request failed and nothing logged an error', async (t) => {
    const requests = server.requests.length;
    note(t, `${requests} requests served (log: ${path.relative(process.cwd(), log)})`);
    assert.ok(requests > 20, `the server saw the page: ${requests} requests`);
    assert.deepEqual(serverGone ? failuresBeforeOffline : server.failures(), [], 'no 404 (or any error) in the server log');
    await gatherErrors();
    if (contexts.length) note(t, `WebGL contexts: ${contexts.join(', ')}`);
    assert.deepEqual([...driver.problems, ...errors], [], 'no console or page error');
    assert.equal(xvfb.exited(), null, 'the X server ran throughout');
  });
}

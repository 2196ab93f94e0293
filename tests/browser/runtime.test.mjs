// tests/browser/runtime.test.mjs — the figure runtime on its own test page,
// tests/browser/fixtures/runtime.html: four figures far apart. Only figures on screen draw;
// clicks, typing and taps reach the right figure; resizing re-lays out; the heatmap colours on
// the GPU; a lost WebGL context comes back with the figure's state; an idle page draws nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  canvasInk, clickWidget, frames, openWatched, rect, screenshotPath, settled, state, until,
  useBrowser,
} from './helpers.mjs';

const figures = ['fixture-heatmap', 'fixture-controls', 'fixture-animation', 'fixture-far'];
const env = useBrowser({ fixtures: true });

async function open(options = {}) {
  const context = await env.browser.newContext({ viewport: { width: 1000, height: 700 }, ...options });
  const watched = await openWatched(context, `${env.url}runtime.html`);
  return { context, ...watched };
}
const scrollTo = (page, name) => page.locator(`canvas[data-figure="${name}"]`).scrollIntoViewIfNeeded();
const allFrames = async (page) => Object.fromEntries(await Promise.all(figures.map(async (n) => [n, await frames(page, n)])));

// The colour of a canvas pixel at CSS point (x, y) of the viewport.
function pixelAt(page, name, x, y) {
  return page.evaluate(([n, px, py]) => {
    const canvas = document.querySelector(`canvas[data-figure="${n}"]`);
    const box = canvas.getBoundingClientRect();
    const scale = canvas.width / box.width;
    const copy = document.createElement('canvas');
    copy.width = canvas.width;
    copy.height = canvas.height;
    const context = copy.getContext('2d');
    context.drawImage(canvas, 0, 0);
    return [...context.getImageData(Math.floor((px - box.left) * scale), Math.floor((py - box.top) * scale), 1, 1).data];
  }, [name, x, y]);
}

test('only figures on screen draw; scrolling wakes the others', async () => {
  const { context, page, problems } = await open();
  assert.deepEqual((await page.evaluate(() => window.lookback.figures())).sort(), [...figures].sort());
  await settled(page, 'fixture-heatmap');
  let counted = await allFrames(page);
  assert.ok(counted['fixture-heatmap'] > 0);
  assert.equal(counted['fixture-controls'], 0);
  assert.equal(counted['fixture-animation'], 0);
  assert.equal(counted['fixture-far'], 0);

  await page.evaluate(() => document.querySelector('canvas[data-figure="fixture-animation"]').scrollIntoView({ block: 'center' }));
  await settled(page, 'fixture-animation');
  counted = await allFrames(page);
  assert.equal(counted['fixture-controls'], 0, 'scrolled past without being on screen');
  assert.equal(counted['fixture-far'], 0);
  assert.ok((await canvasInk(page, 'fixture-animation')).differing > 100);

  // Off screen again: the heatmap draws nothing even when asked to.
  const heatmapFrames = await frames(page, 'fixture-heatmap');
  await page.mouse.move(10, 10);
  await page.waitForTimeout(200);
  assert.equal(await frames(page, 'fixture-heatmap'), heatmapFrames);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a click on a button inside the second figure changes its state', async () => {
  const { context, page, problems } = await open();
  await scrollTo(page, 'fixture-controls');
  await settled(page, 'fixture-controls');
  assert.equal((await state(page, 'fixture-controls')).count, 0);
  await clickWidget(page, 'fixture-controls', 'add');
  await until('count 1', async () => (await state(page, 'fixture-controls')).count === 1);
  await clickWidget(page, 'fixture-controls', 'add');
  await until('count 2', async () => (await state(page, 'fixture-controls')).count === 2);
  assert.equal((await state(page, 'fixture-heatmap')).clicks, 0, 'no other figure saw the clicks');
  const text = await page.locator('[data-figure-alt="fixture-controls"]').textContent();
  assert.match(text, /count = 2/, 'the text alternative follows the state');
  assert.deepEqual(problems, []);
  await context.close();
});

test('typing into an ImGui text field', async () => {
  const { context, page, problems } = await open();
  await scrollTo(page, 'fixture-controls');
  await settled(page, 'fixture-controls');
  await clickWidget(page, 'fixture-controls', 'name');
  const cursor = () => page.evaluate(() => document.querySelector('canvas[data-figure="fixture-controls"]').style.cursor);
  await until('the text cursor over a text field', async () => (await cursor()) === 'text');
  await page.keyboard.type('Bahdanau 2014');
  await until('the text to arrive', async () => (await state(page, 'fixture-controls')).text === 'Bahdanau 2014');
  await page.keyboard.press('Backspace');
  await until('backspace', async () => (await state(page, 'fixture-controls')).text === 'Bahdanau 201');
  // The page keeps its keys once the canvas loses focus.
  await page.keyboard.press('Tab');
  await page.keyboard.type('x');
  await page.waitForTimeout(200);
  assert.equal((await state(page, 'fixture-controls')).text, 'Bahdanau 201');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a tap acts as a click', async () => {
  const { context, page, problems } = await open({ hasTouch: true, isMobile: true, viewport: { width: 420, height: 800 } });
  await scrollTo(page, 'fixture-controls');
  await settled(page, 'fixture-controls');
  const r = await rect(page, 'fixture-controls', 'add');
  await page.touchscreen.tap(r.x + r.width / 2, r.y + r.height / 2);
  await until('count 1 after a tap', async () => (await state(page, 'fixture-controls')).count === 1);
  await page.waitForTimeout(200);
  assert.equal((await state(page, 'fixture-controls')).count, 1, 'one tap, one click');
  assert.deepEqual(problems, []);
  await context.close();
});

test('a finger drags a slider; outside widgets it scrolls the page', async () => {
  const { context, page, problems } = await open({ hasTouch: true, isMobile: true, viewport: { width: 420, height: 800 } });
  await page.evaluate(() => document.querySelector('canvas[data-figure="fixture-controls"]').scrollIntoView({ block: 'center' }));
  await settled(page, 'fixture-controls');
  const cdp = await context.newCDPSession(page);
  const drag = async (x, y, dx, dy) => {  // a real touch sequence, through the browser's input pipeline
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y }] });
    for (let i = 1; i <= 8; i++) {
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: x + dx * i / 8, y: y + dy * i / 8 }] });
    }
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  };
  const slider = await rect(page, 'fixture-controls', 'amount');
  const scrolled = await page.evaluate(() => window.scrollY);
  await drag(slider.x + slider.width / 2, slider.y + slider.height / 2, slider.width / 2 - 2, 0);
  await until('the slider at its maximum', async () => (await state(page, 'fixture-controls')).amount > 0.95);
  assert.equal(await page.evaluate(() => window.scrollY), scrolled, 'the page did not move under the slider');

  // Below the widgets: the figure's empty space lets the page scroll.
  const box = await page.locator('canvas[data-figure="fixture-controls"]').boundingBox();
  await drag(box.x + box.width - 40, box.y + box.height - 8, 0, -200);
  await until('the page to scroll', async () => (await page.evaluate(() => window.scrollY)) > scrolled + 50);
  assert.equal((await state(page, 'fixture-controls')).count, 0, 'nothing was clicked');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the heatmap colours cells on the GPU and answers clicks', async () => {
  const { context, page, problems } = await open();
  await settled(page, 'fixture-heatmap');
  const r = await rect(page, 'fixture-heatmap', 'sequential');
  const cell = (row, col) => [r.x + (col + 0.5) * r.width / 10, r.y + (row + 0.5) * r.height / 6];
  const near = (got, want) => want.every((v, i) => Math.abs(got[i] - v) <= 6);
  const low = await pixelAt(page, 'fixture-heatmap', ...cell(0, 0));
  const high = await pixelAt(page, 'fixture-heatmap', ...cell(0, 9));
  const missing = await pixelAt(page, 'fixture-heatmap', ...cell(5, 9));
  assert.ok(near(low, [68, 1, 84]), `value 0 is viridis's dark purple: ${low}`);
  assert.ok(near(high, [253, 231, 37]), `value 1 is viridis's yellow: ${high}`);
  assert.ok(near(missing, [209, 209, 209]), `NaN is grey: ${missing}`);
  await page.mouse.click(...cell(2, 7));
  await until('a clicked cell', async () => (await state(page, 'fixture-heatmap')).clicks === 1);
  // The runtime adds to every state what the link refused and whether it locked the figure.
  assert.deepEqual(await state(page, 'fixture-heatmap'), { clicks: 1, row: 2, col: 7, url_messages: [], locked: false });
  assert.deepEqual(problems, []);
  await context.close();
});

test('resizing the window re-lays out each figure', async () => {
  const { context, page, problems } = await open();
  await settled(page, 'fixture-heatmap');
  const wide = await rect(page, 'fixture-heatmap', 'sequential');
  await page.setViewportSize({ width: 560, height: 700 });
  await until('a narrower heatmap', async () => (await rect(page, 'fixture-heatmap', 'sequential')).width < wide.width - 100);
  await settled(page, 'fixture-heatmap');
  const narrow = await rect(page, 'fixture-heatmap', 'sequential');
  const box = await page.locator('canvas[data-figure="fixture-heatmap"]').boundingBox();
  const ink = await canvasInk(page, 'fixture-heatmap');
  assert.equal(ink.width, Math.round(box.width), 'the backing store follows the CSS box');
  assert.ok(narrow.x + 2 * narrow.width < box.x + box.width + 20, 'both heatmaps fit the narrower canvas');
  await page.screenshot({ path: screenshotPath('runtime-narrow-dpr1.png') });
  assert.deepEqual(problems, []);
  await context.close();
});

test('a figure that fits its height makes its canvas as tall as what it drew', async () => {
  const { context, page, problems } = await open();
  await scrollTo(page, 'fixture-controls');
  await settled(page, 'fixture-controls');
  const box = await page.locator('canvas[data-figure="fixture-controls"]').boundingBox();
  const last = await rect(page, 'fixture-controls', 'amount');
  const below = box.y + box.height - (last.y + last.height);
  assert.ok(below >= 8 && below <= 14, `window padding below the last widget: ${below}px`);
  assert.notEqual(Math.round(box.height), 128, 'not the 8rem of the page\'s CSS');
  assert.deepEqual(problems, []);
  await context.close();
});

test('an animating figure keeps drawing; a still one stops', async () => {
  const { context, page, problems } = await open();
  await scrollTo(page, 'fixture-animation');
  await settled(page, 'fixture-animation');
  await clickWidget(page, 'fixture-animation', 'animate');
  await until('animation on', async () => (await state(page, 'fixture-animation')).animate);
  const start = await frames(page, 'fixture-animation');
  await page.waitForTimeout(500);
  assert.ok((await frames(page, 'fixture-animation')) - start > 10, 'about one frame per display refresh');
  await clickWidget(page, 'fixture-animation', 'animate');
  await until('animation off', async () => !(await state(page, 'fixture-animation')).animate);
  await settled(page, 'fixture-animation');
  const stopped = await frames(page, 'fixture-animation');
  await page.waitForTimeout(500);
  assert.equal(await frames(page, 'fixture-animation'), stopped);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a lost WebGL context comes back with the figure\'s state', async () => {
  const { context, page, problems } = await open();
  await scrollTo(page, 'fixture-controls');
  await settled(page, 'fixture-controls');
  await clickWidget(page, 'fixture-controls', 'add');
  await until('count 1', async () => (await state(page, 'fixture-controls')).count === 1);
  await settled(page, 'fixture-controls');
  const before = await frames(page, 'fixture-controls');
  await page.evaluate(() => {
    const gl = document.querySelector('canvas[data-figure="fixture-controls"]').getContext('webgl2');
    window.loseContext = gl.getExtension('WEBGL_lose_context');
    window.loseContext.loseContext();
  });
  await page.waitForTimeout(200);
  await page.evaluate(() => window.loseContext.restoreContext());
  await until('a frame after the restore', async () => (await frames(page, 'fixture-controls')) > before);
  await settled(page, 'fixture-controls');
  assert.equal((await state(page, 'fixture-controls')).count, 1);
  const ink = await canvasInk(page, 'fixture-controls');
  assert.ok(ink.differing > 100 && ink.colours > 8, `drawn again: ${JSON.stringify(ink)}`);
  await clickWidget(page, 'fixture-controls', 'add');
  await until('count 2 after the restore', async () => (await state(page, 'fixture-controls')).count === 2);
  assert.deepEqual(problems, []);
  await context.close();
});

// WebKit keeps 16 live WebGL contexts in a web process and, past that, takes the least recently
// drawn one for good: webglcontextlost, never webglcontextrestored (Figure 1, drawn
// first, stayed blank). WEBGL_lose_context's loseContext() does the same here (only restoreContext() brings such
// a context back), so the page must ask for it itself: when the figure comes near again, and a
// second after the loss when it is near already.
test('a context the browser takes for good comes back when its figure is near', async () => {
  const { context, page, problems } = await open();
  const lose = (name) => page.evaluate((n) => {
    const gl = document.querySelector(`canvas[data-figure="${n}"]`).getContext('webgl2');
    gl.getExtension('WEBGL_lose_context').loseContext();
    return gl.isContextLost();
  }, name);
  const drawn = async (what) => {
    const ink = await canvasInk(page, 'fixture-controls');
    assert.ok(ink.differing > 100 && ink.colours > 8, `${what}: ${JSON.stringify(ink)}`);
  };
  await scrollTo(page, 'fixture-controls');
  await settled(page, 'fixture-controls');
  await scrollTo(page, 'fixture-far');
  await settled(page, 'fixture-far');
  const away = await frames(page, 'fixture-controls');
  assert.ok(await lose('fixture-controls'), 'taken while away from the viewport');
  await page.waitForTimeout(1500);
  assert.equal(await frames(page, 'fixture-controls'), away, 'not asked back while away');
  await scrollTo(page, 'fixture-controls');
  await until('a frame once near again', async () => (await frames(page, 'fixture-controls')) > away);
  await settled(page, 'fixture-controls');
  await drawn('drawn again once near');
  const near = await frames(page, 'fixture-controls');
  assert.ok(await lose('fixture-controls'), 'taken while near');
  await until('a frame after the loss', async () => (await frames(page, 'fixture-controls')) > near);
  await settled(page, 'fixture-controls');
  await drawn('drawn again where it was');
  assert.deepEqual(problems, []);
  await context.close();
});

test('idle for two seconds: no figure draws a frame', async () => {
  const { context, page, problems } = await open();
  for (const name of figures) {  // every figure has drawn; the last one stays on screen
    await scrollTo(page, name);
    await settled(page, name);
  }
  const before = await allFrames(page);
  await page.waitForTimeout(2000);
  assert.deepEqual(await allFrames(page), before);
  assert.deepEqual(problems, []);
  await context.close();
});

test('screenshots at devicePixelRatio 1 and 2', async () => {
  for (const ratio of [1, 2]) {
    const { context, page, problems } = await open({ deviceScaleFactor: ratio, viewport: { width: 800, height: 600 } });
    for (const name of ['fixture-heatmap', 'fixture-controls']) {
      await scrollTo(page, name);
      await settled(page, name);
      const box = await page.locator(`canvas[data-figure="${name}"]`).boundingBox();
      assert.equal((await canvasInk(page, name)).width, Math.round(box.width * ratio));
      await page.locator(`canvas[data-figure="${name}"]`).screenshot({ path: screenshotPath(`${name}-dpr${ratio}.png`) });
    }
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('the wheel scrolls the page over a figure with nothing to scroll', async () => {
  const { context, page, problems } = await open();
  await settled(page, 'fixture-heatmap');
  const r = await rect(page, 'fixture-heatmap', 'sequential');
  await page.mouse.move(r.x + 20, r.y + 20);
  await page.mouse.wheel(0, 300);
  await until('the page to scroll', async () => (await page.evaluate(() => window.scrollY)) > 100);
  assert.deepEqual(problems, []);
  await context.close();
});

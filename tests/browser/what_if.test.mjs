// tests/browser/what_if.test.mjs — "what if the decoder had looked elsewhere?" in headless
// Chromium. In the alignment figure: a drag across two bars of the day's first digit moves that
// step's attention evenly onto the year's last two digits; the moved row is exactly the weights
// given, the steps before it decode as before (they never see the move), and the characters
// reported as changed are exactly those that differ; Reset puts the attention back; a link's
// al.move is applied, and a bad one is refused by name. In the Transformer-maps figure: a click on
// a bar moves one head's attention (the other heads' rows stay the model's own), and what the page
// then writes is what `lookback predict --attend --head`, run natively on the same weights file,
// writes; under the mean every head moves; with memory first the bars take no move and a link's is
// refused with the core's reason; a bad tm.move is refused by name. LOOKBACK_SITE overrides
// build/site; the native tool is build/native/lookback.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { test } from 'node:test';
import { clickWidget, frames, openWatched, rect, root, site, state, until, useBrowser } from './helpers.mjs';

const env = useBrowser({ folder: process.env.LOOKBACK_SITE || undefined });
const folder = process.env.LOOKBACK_SITE || site;

async function openAlignment(query = '') {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const opened = await openWatched(context, env.url + query);
  await opened.page.locator('canvas[data-figure="alignment"]').scrollIntoViewIfNeeded();
  await until('the map and its bars', async () => (await rect(opened.page, 'alignment', 'bars')) !== null &&
                                                  (await state(opened.page, 'alignment')).weights.length === 10, 40000);
  return { context, ...opened };
}

// The centre of bar j, as map_view.h lays the bars out: an 18 px label, then cells of
// (width − 18) / C clamped to 8–26 px.
function barCentre(bars, j, C) {
  const cell = Math.min(26, Math.max(8, (bars.width - 18) / C));
  return { x: bars.x + 18 + (j + 0.5) * cell, y: bars.y + bars.height / 2 };
}

test('a drag across the bars moves the step\'s attention; the rest of the decoding follows, Reset undoes it', async () => {
  const { context, page, problems } = await openAlignment();
  await clickWidget(page, 'alignment', 'out-8');  // the day's first digit
  await until('row 8', async () => (await state(page, 'alignment')).selected_output === 8);
  const before = await state(page, 'alignment');
  const j = before.input.search(/\d{4}/) + 2;  // the year's last two digits ("77": not the day's "19")
  assert.ok(j > 2, `a year in ${before.input}`);
  const bars = await rect(page, 'alignment', 'bars');
  const from = barCentre(bars, j, before.input.length), to = barCentre(bars, j + 1, before.input.length);
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(to.x, to.y, { steps: 4 });
  await page.mouse.up();
  await until('the move', async () => (await state(page, 'alignment')).moved !== null, 10000);
  const s = await state(page, 'alignment');
  assert.deepEqual(s.move, { step: 8, first: j, last: j + 1 });
  assert.equal(s.moved.error, '');
  // The moved row is the weights given: a half on each of the two positions.
  s.moved.weights[8].forEach((w, k) => assert.ok(Math.abs(w - (k === j || k === j + 1 ? 0.5 : 0)) < 1e-6, `weight ${k}: ${w}`));
  // Steps 0–7 come before the move: the same characters and the same maps.
  assert.equal(s.moved.output.slice(0, 8), before.output.slice(0, 8));
  for (let t = 0; t < 8; ++t) assert.deepEqual(s.moved.weights[t], before.weights[t], `row ${t}`);
  // What changed is what differs.
  const differs = [...s.moved.output].flatMap((c, t) => (c !== before.output[t] ? [t] : []));
  assert.deepEqual(s.moved.changed, differs);
  console.log(`# ${before.input}: ${before.output} → ${s.moved.output} with step 8 on "${before.input.slice(j, j + 2)}"`);
  // Drawn in the frame after the decoding, which state() may have asked for first.
  await until('the map after the move drawn', async () => (await rect(page, 'alignment', 'moved-map')) !== null, 10000);

  await clickWidget(page, 'alignment', 'reset-move');
  await until('the attention put back', async () => (await state(page, 'alignment')).move === null, 10000);
  assert.deepEqual((await state(page, 'alignment')).weights, before.weights);
  assert.deepEqual(problems, []);
  await context.close();
});

test('al.move: a link moves a step\'s attention; a bad one is refused by name and moves nothing', async () => {
  let { context, page } = await openAlignment('?al.ex=3&al.move=5:0');
  let s = await state(page, 'alignment');
  assert.deepEqual(s.url_messages, []);
  assert.equal(s.example, 3);
  assert.deepEqual(s.move, { step: 5, first: 0, last: 0 });
  await until('the moved decoding', async () => (await state(page, 'alignment')).moved !== null, 10000);
  s = await state(page, 'alignment');
  assert.equal(s.moved.weights[5][0], 1);
  await context.close();

  ({ context, page } = await openAlignment('?al.move=12:0'));
  s = await state(page, 'alignment');
  assert.ok(s.url_messages.some((m) => m.includes('al.move=')), JSON.stringify(s.url_messages));
  assert.equal(s.move, null);
  await context.close();
});

// --- the Transformer-maps figure -------------------------------------------------------------

const lesson = 'monday 19 september 1977';

async function openMaps(query = '') {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const opened = await openWatched(context, env.url + query);
  await opened.page.locator('canvas[data-figure="transformer-maps"]').scrollIntoViewIfNeeded();
  await until('the Transformer\'s maps and bars', async () => (await rect(opened.page, 'transformer-maps', 'bars')) !== null &&
                                                         (await state(opened.page, 'transformer-maps')).cross_mean.length === 10, 40000);
  return { context, ...opened };
}

// Clicks bar j of the maps' bars with the mouse, scrolled into view first (after a painted frame,
// as clickWidget does).
async function clickBar(page, j) {
  let bars = await rect(page, 'transformer-maps', 'bars');
  const height = page.viewportSize().height;
  await page.evaluate((dy) => new Promise((resolve) => {
    window.scrollBy(0, dy);
    requestAnimationFrame(() => requestAnimationFrame(resolve));
  }), bars.y - height / 3);
  bars = await rect(page, 'transformer-maps', 'bars');
  const at = barCentre(bars, j, lesson.length);
  await page.mouse.click(at.x, at.y);
}

// `lookback predict --attend STEP=POS [--head H]` on the shipped all-states Transformer the page
// loaded: the core's counterfactual, natively, through the command line's path.
function predictNatively(step, position, head) {
  const args = ['predict', '--json', '--weights', path.join(folder, 'assets/transformer-all-64.safetensors'),
                '--attend', `${step}=${position}`, ...(head === undefined ? [] : ['--head', String(head)]), lesson];
  const line = JSON.parse(execFileSync(path.join(root, 'build/native/lookback'), args, { encoding: 'utf8' }).split('\n')[0]);
  return line.attend;
}

const oneHot = (row, j) => row.every((w, k) => w === (k === j ? 1 : 0));

test('Transformer maps: a click on a bar moves one head\'s attention; the page writes what the core writes natively', async () => {
  const { context, page, problems } = await openMaps();
  const step = 8, j = 21, head = 2;  // 1-based, as the figure numbers its heads
  await clickWidget(page, 'transformer-maps', `out-${step}`);
  await until(`row ${step}`, async () => (await state(page, 'transformer-maps')).selected_output === step, 20000);
  await clickWidget(page, 'transformer-maps', `head-${head}`);
  await until(`head ${head}`, async () => (await state(page, 'transformer-maps')).head === head, 20000);
  const before = await state(page, 'transformer-maps');
  assert.equal(before.input, lesson);
  await clickBar(page, j);
  await until('the move', async () => (await state(page, 'transformer-maps')).moved !== null, 20000);
  const s = await state(page, 'transformer-maps');
  assert.deepEqual(s.move, { step, first: j, last: j });
  assert.equal(s.moved.error, '');
  // The head shown moved wholly onto j; the other heads' rows are the model's own, as is every
  // row before the step; the map shown after the move is that head's.
  s.moved.cross_heads.forEach((map, h) => {
    if (h === head - 1) assert.ok(oneHot(map[step], j), `head ${h + 1}, row ${step}: ${map[step]}`);
    else assert.deepEqual(map[step], before.cross_heads[h][step], `head ${h + 1}, row ${step}`);
    for (let t = 0; t < step; ++t) assert.deepEqual(map[t], before.cross_heads[h][t], `head ${h + 1}, row ${t}`);
  });
  assert.deepEqual(s.moved.weights, s.moved.cross_heads[head - 1]);
  const differs = [...s.moved.output].flatMap((c, t) => (c !== before.output[t] ? [t] : []));
  assert.deepEqual(s.moved.changed, differs);

  // The core, natively, on the same file: the same output for this head (--head is 0-based), and
  // the move must matter (a head that changed nothing would prove little), and which head moves
  // must matter too, so a page moving the wrong head would fail here.
  const natively = [0, 1, 2, 3].map((h) => predictNatively(step, j, h));
  assert.equal(s.moved.output, natively[head - 1].output);
  assert.deepEqual(s.moved.changed, natively[head - 1].changed_steps);
  assert.notEqual(s.moved.output, before.output, 'the move changes what the model writes');
  assert.ok(natively.some((n) => n.output !== s.moved.output), `moving another head writes something else: ${natively.map((n) => n.output)}`);
  console.log(`# ${lesson}: ${before.output} → ${s.moved.output} with step ${step} of head ${head} on input ${j} ` +
              `(each head natively: ${natively.map((n) => n.output).join(', ')})`);
  await until('the map after the move drawn', async () => (await rect(page, 'transformer-maps', 'moved-map')) !== null, 10000);
  await until('the move in the URL', async () => page.url().includes(`tm.move=${step}%3A${j}`), 5000);

  await clickWidget(page, 'transformer-maps', 'reset-move');
  await until('the attention put back', async () => (await state(page, 'transformer-maps')).move === null, 10000);
  assert.equal((await state(page, 'transformer-maps')).moved, null);
  assert.deepEqual(problems, []);
  await context.close();
});

test('tm.move: under the mean every head moves; with memory first nothing can move; bad values are refused by name', async () => {
  // Every head on one digit of the year: the model copies it (what it must do if its cross-attention
  // is where the digits come from), and the core natively writes the same.
  let { context, page, problems } = await openMaps(`?tm.move=9:22`);
  await until('the moved decoding', async () => (await state(page, 'transformer-maps')).moved !== null, 20000);
  let s = await state(page, 'transformer-maps');
  assert.deepEqual(s.url_messages, []);
  assert.equal(s.head, 0);
  for (const map of s.moved.cross_heads) assert.ok(oneHot(map[9], 22));
  assert.ok(oneHot(s.moved.weights[9], 22), 'the mean of one-hot rows');
  assert.equal(s.moved.output[9], lesson[22], `step 9 copies input 22: ${s.moved.output}`);
  assert.equal(s.moved.output, predictNatively(9, 22).output);
  assert.deepEqual(problems, []);
  await context.close();

  // Memory first: the bars take no click, and a link's move off position 0 is refused with the
  // core's reason (no exception reaches the page).
  ({ context, page, problems } = await openMaps('?tm.memory=first'));
  const drawn = await frames(page, 'transformer-maps');
  await clickBar(page, 5);
  await until('frames after the click', async () => (await frames(page, 'transformer-maps')) >= drawn + 2, 10000);
  assert.equal((await state(page, 'transformer-maps')).move, null, 'no move with memory first');
  await context.close();
  ({ context, page, problems } = await openMaps('?tm.memory=first&tm.move=3:5'));
  await until('the refusal', async () => (await state(page, 'transformer-maps')).moved !== null, 20000);
  s = await state(page, 'transformer-maps');
  assert.deepEqual(s.url_messages, []);
  assert.match(s.moved.error, /attends to input position 0 only: output step 3 weighs position 5/);
  assert.equal(s.moved.output, '');
  assert.deepEqual(problems, []);
  await context.close();

  ({ context, page } = await openMaps('?tm.move=12:0'));
  s = await state(page, 'transformer-maps');
  assert.ok(s.url_messages.some((m) => m.includes('tm.move=') && /STEP:POSITION/.test(m)), JSON.stringify(s.url_messages));
  assert.equal(s.move, null);
  await context.close();
});

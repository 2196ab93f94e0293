// tests/browser/what_if.test.mjs — "what if the decoder had looked elsewhere?" in the alignment
// figure, in headless Chromium: a drag across two bars of the day's first digit moves that step's
// attention evenly onto the year's first two digits; the moved row is exactly the weights given,
// the steps before it decode as before (they never see the move), and the characters reported as
// changed are exactly those that differ; Reset puts the attention back; a link's al.move is
// applied, and a bad one is refused by name.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clickWidget, openWatched, rect, state, until, useBrowser } from './helpers.mjs';

const env = useBrowser({ folder: process.env.LOOKBACK_SITE || undefined });

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
  const j = before.input.search(/\d{4}/);  // the year's first digit
  assert.ok(j > 0, `a year in ${before.input}`);
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
  assert.ok(await rect(page, 'alignment', 'moved-map'), 'the map after the move is drawn');

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

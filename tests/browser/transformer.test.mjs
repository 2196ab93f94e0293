// tests/browser/transformer.test.mjs — the Transformer section (web/figures/transformer.cpp, the
// worker module's Transformer config): the training module takes a Transformer config and refuses
// bad ones by name; both memories train in workers and their loss falls; a click on the
// cross-attention map selects an output whose bars sum to 1 and whose peaks match the matrix; the
// mean over heads equals the per-head maps' mean (computed here), for the cross-attention and the
// encoder's self-attention; the first-state model's map is all on position 0; a typed date is
// shown or refused; hostile tf.* / tm.* URL values are refused and change nothing.
// LOOKBACK_SITE overrides build/site.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';
import os from 'node:os';
import { clickWidget, openWatched, rect, serve, site, state, typeIntoField, until, useBrowser } from './helpers.mjs';

const env = useBrowser({ folder: process.env.LOOKBACK_SITE || undefined });
const folder = process.env.LOOKBACK_SITE || site;

async function openAt(figure, widget, query = '', viewport = { width: 1000, height: 900 }) {
  const context = await env.browser.newContext({ viewport });
  const opened = await openWatched(context, env.url + query);
  await opened.page.locator(`canvas[data-figure="${figure}"]`).scrollIntoViewIfNeeded();
  await until(`${figure} to draw ${widget}`, async () => (await rect(opened.page, figure, widget)) !== null, 20000);
  return { context, ...opened };
}

// The shipped Transformer's maps are drawn (and their widgets recorded). Waits are long: under
// software WebGL on a busy machine a frame of this tall canvas can take seconds.
async function mapsLoaded(page) {
  await until('the shipped Transformers to load', async () => (await state(page, 'transformer-maps')).cross_mean.length === 10, 30000);
  await until('the map to be drawn', async () => (await rect(page, 'transformer-maps', 'out-0')) !== null, 10000);
}

const mean = (matrices) => matrices[0].map((row, r) => row.map((_, c) => matrices.reduce((s, m) => s + m[r][c], 0) / matrices.length));
const argmax = (row) => row.indexOf(Math.max(...row));

test('the training module takes a Transformer config, trains it, and refuses bad ones by name', async () => {
  const createLookbackTrainer = createRequire(import.meta.url)(path.join(folder, 'lookback_trainer.js'));
  const module = await createLookbackTrainer({ wasmBinary: fs.readFileSync(path.join(folder, 'lookback_trainer.wasm')) });
  const create = (config) => module.ccall('lbt_create', 'number', ['string'], [JSON.stringify(config)]);
  for (const memory of ['all', 'first']) {
    const id = create({ model: 'transformer', memory, heads: 2, width: 16, epochs: 1, seed: 2 });
    assert.ok(id >= 0, module.UTF8ToString(module._lbt_message()));
    assert.equal(module._lbt_work(id, 1e9, 40), 2, 'stops before step 40');
    const losses = JSON.parse(module.UTF8ToString(module._lbt_report(id))).losses;
    const head = losses.slice(0, 5).reduce((a, b) => a + b) / 5, tail = losses.slice(-5).reduce((a, b) => a + b) / 5;
    assert.ok(tail < head - 0.2, `memory ${memory}: the loss falls over 40 steps, ${head.toFixed(3)} → ${tail.toFixed(3)}`);
    const weights = module._malloc(4);
    assert.ok(module._lbt_weights(id, weights) !== 0 && module.HEAP32[weights >> 2] > 0, 'its weights can be saved');
    module._free(weights);
    module._lbt_destroy(id);
  }
  const refused = [
    [{ model: 'transformer', heads: 3 }, /heads must be 1, 2, 4 or 8/],
    [{ model: 'transformer', heads: 8, width: 12 }, /8 heads do not divide the width 12/],
    [{ model: 'transformer', heads: 'four' }, /heads must be a number, not '"four"'/],
    [{ model: 'transformer', memory: 'second' }, /memory must be all or first, not 'second'/],
    [{ model: 'transformer', memory: 1 }, /memory must be a string/],
    [{ model: 'transformer', scorer: 'dot' }, /scorer applies to model attention, bahdanau, luong and luong-local only, not transformer/],
    [{ model: 'transformer', input_feeding: true }, /input_feeding applies to model luong and luong-local only, not transformer/],
    [{ model: 'attention', memory: 'first' }, /memory applies to model transformer only, not attention/],
    [{ model: 'gpt' }, /model must be plain, attention, transformer, bahdanau, luong or luong-local, not 'gpt'/],
    [{ model: 'transformer', width: 2048 }, /width must be an integer from 1 to 1024, not '2048'/],
  ];
  for (const [config, why] of refused) {
    assert.equal(create(config), -1, JSON.stringify(config));
    assert.match(module.UTF8ToString(module._lbt_message()), why);
  }
});

test('Transformer training: both memories train in workers and the loss falls', async () => {
  const { context, page, problems } = await openAt('transformer-training', 'train', '?tf.width=16&tf.heads=2&tf.seed=3');
  const before = await state(page, 'transformer-training');
  assert.deepEqual([before.width, before.heads, before.seed], [16, 2, 3], 'the URL sets the settings');
  assert.deepEqual(before.runs.map((r) => r.model), ['transformer-first', 'transformer-all']);
  assert.deepEqual(before.runs.map((r) => r.steps), [0, 0]);
  await clickWidget(page, 'transformer-training', 'train');
  await until('30 steps of each', async () => (await state(page, 'transformer-training')).runs.every((r) => r.steps >= 30), 90000);
  await clickWidget(page, 'transformer-training', 'pause');
  await until('the pause', async () => !(await state(page, 'transformer-training')).running, 5000);
  const paused = await state(page, 'transformer-training');
  for (const run of paused.runs) {
    assert.equal(run.failed, null);
    assert.ok(run.loss_recent < run.loss_first - 0.3, `${run.model}: loss ${run.loss_first.toFixed(3)} → ${run.loss_recent.toFixed(3)}`);
  }
  // The parameter count by hand (transformer.h's formula) at D = 16, F = 32: embeddings 53·16,
  // encoder (3D² + 3D) + (D² + D) + 2DF + F + D + 4D, decoder 2(4D² + 4D) + 2DF + F + D + 6D, output 13D + 13.
  const D = 16, F = 32;
  const count = 53 * D + (4 * D * D + 4 * D) + (2 * D * F + F + D) + 4 * D + 2 * (4 * D * D + 4 * D) + (2 * D * F + F + D) + 6 * D + 13 * D + 13;
  assert.deepEqual(paused.runs.map((r) => r.parameters), [count, count]);
  assert.deepEqual(problems, []);
  await context.close();
});

test('cross-attention map: a click selects an output, bars sum to 1, peaks match, heads average to the mean', async () => {
  const { context, page, problems } = await openAt('transformer-maps', 'date');
  await mapsLoaded(page);
  let s = await state(page, 'transformer-maps');
  assert.equal(s.input, 'monday 19 september 1977');
  assert.equal(s.memory, 'all');
  assert.equal(s.output, '1977-09-19', 'the shipped all-states Transformer is right on the lesson\'s example');
  assert.equal(s.heads, 4);
  assert.equal(s.cross_heads.length, 4);

  // The mean map is the average of the heads' maps, for both attentions.
  for (const [name, m, heads, rows] of [['cross', s.cross_mean, s.cross_heads, 10], ['self', s.self_mean, s.self_heads, 24]]) {
    assert.equal(m.length, rows);
    const averaged = mean(heads);
    for (let r = 0; r < rows; r++) {
      for (let c = 0; c < 24; c++) assert.ok(Math.abs(m[r][c] - averaged[r][c]) < 1e-5, `${name} [${r}, ${c}]`);
      for (const h of heads) assert.ok(Math.abs(h[r].reduce((a, b) => a + b) - 1) < 1e-4, `${name}: every head's row sums to 1`);
    }
  }

  // What the article says of this map: the year's digits (outputs 0-3) peak in the year (input
  // 20-23), the month's (5, 6) in the month word (10-18), the day's (8, 9) in the day (7, 8); the
  // year's first digit, '1' at input 20, peaks one ahead, on the '9' at 21.
  const peaks = s.cross_mean.map(argmax);
  for (const t of [0, 1, 2, 3]) assert.ok(peaks[t] >= 20 && peaks[t] <= 23, `output ${t} peaks at ${peaks[t]}`);
  for (const t of [5, 6]) assert.ok(peaks[t] >= 10 && peaks[t] <= 18, `output ${t} peaks at ${peaks[t]}`);
  for (const t of [8, 9]) assert.ok(peaks[t] >= 7 && peaks[t] <= 8, `output ${t} peaks at ${peaks[t]}`);
  assert.equal(peaks[0], 21);
  // And of the self-attention: the weekday's letters (input 0-5) peak in the day (7, 8), most of
  // the month word's letters (10-18) in the year (20-23).
  const selfPeaks = s.self_mean.map(argmax);
  for (const i of [0, 1, 2, 3, 4, 5]) assert.ok(selfPeaks[i] >= 7 && selfPeaks[i] <= 8, `input ${i} peaks at ${selfPeaks[i]}`);
  assert.ok(selfPeaks.slice(10, 19).filter((p) => p >= 20).length >= 5, `month letters' peaks: ${selfPeaks.slice(10, 19)}`);

  await clickWidget(page, 'transformer-maps', 'out-8');
  await until('output 8 selected', async () => (await state(page, 'transformer-maps')).selected_output === 8, 20000);
  s = await state(page, 'transformer-maps');
  const sum = s.bars.reduce((a, b) => a + b, 0);
  assert.ok(Math.abs(sum - 1) < 1e-4, `bars sum to ${sum}`);
  assert.deepEqual(s.bars, s.cross_mean[8], 'the bars are row 8 of the mean map');

  // A head: the bars follow it.
  await clickWidget(page, 'transformer-maps', 'head-2');
  await until('head 2', async () => (await state(page, 'transformer-maps')).head === 2, 20000);
  s = await state(page, 'transformer-maps');
  assert.deepEqual(s.bars, s.cross_heads[1][8], 'the bars are row 8 of head 2');

  // A click on a cell selects its row.
  const map = await rect(page, 'transformer-maps', 'map');
  await page.mouse.click(map.x + (3.5 * map.width) / 24, map.y + (2.5 * map.height) / 10);
  await until('output 2 selected by its cell', async () => (await state(page, 'transformer-maps')).selected_output === 2, 20000);
  await until('the selected row and head in the URL', async () => /tm\.row=2/.test(page.url()) && /tm\.head=2/.test(page.url()), 5000);

  // The encoder's self-attention: a click on an input character selects its row.
  await page.locator('canvas[data-figure="transformer-maps"]').evaluate((c) => c.scrollIntoView({ block: 'end' }));
  await until('the self-attention map', async () => (await rect(page, 'transformer-maps', 'in-10')) !== null, 10000);
  await clickWidget(page, 'transformer-maps', 'in-10');
  await until('input 10 selected', async () => (await state(page, 'transformer-maps')).selected_input === 10, 20000);
  s = await state(page, 'transformer-maps');
  assert.deepEqual(s.self_bars, s.self_heads[1][10], 'the self-attention bars are row 10 of head 2');

  // The first-state memory: one key, so every row is weight 1 on position 0, in every head.
  await page.locator('canvas[data-figure="transformer-maps"]').evaluate((c) => c.scrollIntoView({ block: 'start' }));
  await page.waitForTimeout(300);  // a frame at the new scroll position
  await clickWidget(page, 'transformer-maps', 'memory-first state');
  await until('the first-state model', async () => (await state(page, 'transformer-maps')).memory === 'first', 20000);
  s = await state(page, 'transformer-maps');
  for (const matrix of [s.cross_mean, ...s.cross_heads])
    for (const row of matrix) assert.deepEqual([row[0], row.slice(1).every((w) => w === 0)], [1, true]);
  assert.deepEqual(problems, []);
  await context.close();
});

test('Transformer maps: a typed date is shown, a refused one says why and keeps the maps', async () => {
  const { context, page, problems } = await openAt('transformer-maps', 'date');
  await mapsLoaded(page);
  const before = await state(page, 'transformer-maps');
  const typeDate = (text) => typeIntoField(page, 'transformer-maps', 'date', text);
  await typeDate('19/3/1994!');
  // Under software WebGL each key is a frame of this tall canvas: typing takes a while.
  await until('the refusal', async () => (await state(page, 'transformer-maps')).message !== '', 60000);
  let s = await state(page, 'transformer-maps');
  assert.match(s.message, /'!'/, s.message);
  assert.equal(s.input, before.input);
  assert.deepEqual(s.cross_mean, before.cross_mean, 'the maps are still the last good ones');

  await typeDate('The 4 of August, 2003');
  await until('the new maps', async () => (await state(page, 'transformer-maps')).input === 'the 4 of august, 2003', 60000);
  s = await state(page, 'transformer-maps');
  assert.equal(s.message, '');
  assert.equal(s.output, '2003-08-04');
  assert.equal(s.cross_mean[0].length, 21);
  assert.equal(s.self_mean.length, 21);
  assert.deepEqual(problems, []);
  await context.close();
});

test('hostile tf.* and tm.* values are refused by name and change nothing', async () => {
  const query = '?tf.width=24&tf.heads=3&tf.seed=-1&tf.epochs=1e9&tf.lr=1&tm.head=9&tm.memory=second' +
                '&tm.date=%3Cscript%3E&tm.row=10&tm.model=' + encodeURIComponent('page\u0007');
  const { context, page, problems } = await openAt('transformer-maps', 'date', query);
  await mapsLoaded(page);
  const maps = await state(page, 'transformer-maps');
  assert.deepEqual([maps.input, maps.memory, maps.model, maps.head, maps.selected_output],
                   ['monday 19 september 1977', 'all', 'shipped', 0, 0], 'every field kept its default');
  for (const key of ['tm.head', 'tm.memory', 'tm.date', 'tm.row', 'tm.model'])
    assert.ok(maps.url_messages.some((m) => m.includes(`${key}=`) && /default/.test(m)), `${key}: ${JSON.stringify(maps.url_messages)}`);
  await page.locator('canvas[data-figure="transformer-training"]').scrollIntoViewIfNeeded();
  const training = await state(page, 'transformer-training');
  assert.deepEqual([training.width, training.heads, training.seed, training.epochs], [64, 4, 1, 12]);
  for (const key of ['tf.width', 'tf.heads', 'tf.seed', 'tf.epochs'])
    assert.ok(training.url_messages.some((m) => m.includes(`${key}=`) && /default/.test(m)), `${key}: ${JSON.stringify(training.url_messages)}`);
  assert.ok(training.url_messages.some((m) => m.includes('tf.lr') && /not a setting/.test(m)), 'tf.lr: not a key of this figure');
  assert.deepEqual(problems, []);
  await context.close();
});

test('without the shipped Transformers the maps say so, and the training figure still trains', async (t) => {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'lookback-no-transformers-'));
  fs.cpSync(folder, copy, { recursive: true });
  for (const memory of ['all', 'first']) fs.rmSync(path.join(copy, `assets/transformer-${memory}-64.safetensors`));
  const server = await serve(copy);
  t.after(() => server.close());  // also when an assertion fails: the server must not outlive the test
  const context = await env.browser.newContext({ viewport: { width: 1000, height: 900 } });
  const { page, problems } = await openWatched(context, server.url + '?tf.width=16');
  await page.locator('canvas[data-figure="transformer-maps"]').scrollIntoViewIfNeeded();
  await until('both refusals', async () => (await state(page, 'transformer-maps')).shipped_error.split('HTTP 404').length === 3, 30000);
  const s = await state(page, 'transformer-maps');
  assert.match(s.shipped_error, /The shipped Transformer \(all states\) could not be loaded: .*transformer-all-64\.safetensors answered HTTP 404/);
  assert.deepEqual(s.cross_mean, [], 'no map is made up');
  // The refusals may come before the figure's first frame after it scrolled in: its controls
  // are looked for once it has drawn.
  await until('the figure still draws its controls', async () => (await rect(page, 'transformer-maps', 'date')) !== null, 20000);
  await page.locator('canvas[data-figure="transformer-training"]').scrollIntoViewIfNeeded();
  await until('the training figure', async () => (await rect(page, 'transformer-training', 'step')) !== null, 20000);
  await clickWidget(page, 'transformer-training', 'step');
  await until('one step each', async () => (await state(page, 'transformer-training')).runs.every((r) => r.steps === 1), 30000);
  // The two missing files, as the page's watcher and the browser's console report them; nothing else.
  const expected = /HTTP 404: .*transformer-(all|first)-64\.safetensors|console error: Failed to load resource: .* 404/;
  assert.deepEqual(problems.filter((p) => !expected.test(p)), []);
  await context.close();
  fs.rmSync(copy, { recursive: true, force: true });
});

// tests/browser/lesson2.test.mjs — the experiment's figures (web/figures/, web/lab/, web/worker/) in headless Chromium:
// live training makes the loss fall and Pause stops it while the figure draws on; an
// output character clicked on the alignment map selects it, with bars that sum to 1 and a peak
// that matches the matrix; a refused date keeps the last map; a header click ranks the results;
// the shipped attention model scores ≥ 0.99 exact in the page, as it did natively; the sweep
// fills in the page's rows; the saved files are real. LOOKBACK_SITE overrides build/site.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clickWidget, frames, framesPerSecond, openWatched, rect, state, typeIntoField, until, useBrowser } from './helpers.mjs';

const env = useBrowser({ folder: process.env.LOOKBACK_SITE || undefined, ownContexts: true });

// Opens the page scrolled to `figure`, once that figure has drawn `widget`.
async function openAt(figure, widget, query = '', viewport = { width: 1000, height: 900 }) {
  const context = await env.browser.newContext({ viewport, acceptDownloads: true });
  const opened = await openWatched(context, env.url + query);
  await opened.page.locator(`canvas[data-figure="${figure}"]`).scrollIntoViewIfNeeded();
  await until(`${figure} to draw ${widget}`, async () => (await rect(opened.page, figure, widget)) !== null, 20000);
  return { context, ...opened };
}

// The shipped models are in, and the alignment figure has drawn its map (and recorded its widgets).
async function shippedLoaded(page) {
  await until('the shipped models to load', async () => (await state(page, 'alignment')).weights.length === 10, 30000);
  await until('the map to be drawn', async () => (await rect(page, 'alignment', 'out-0')) !== null, 10000);
}

test('live training: the loss falls, Pause stops it, and the page draws on while it trains', async () => {
  const { context, page, problems } = await openAt('training', 'train', '?tr.width=32&tr.seed=3');
  const before = await state(page, 'training');
  assert.equal(before.width, 32, 'the URL sets the width');
  assert.equal(before.seed, 3, 'the URL sets the seed');
  assert.equal(before.runs[1].steps, 0);
  // The shipped models are evaluated at load; let that finish so only training runs below.
  await until('the shipped models to be evaluated', async () => (await state(page, 'sweep')).shipped.attention !== undefined, 30000);

  // The pair trains in workers and the figure draws on while it does. Its frame rate is logged,
  // not asserted: on this shared two-core machine it is the load's (8 frames/s training, 43 idle,
  // at a load average of 13); lesson2_bench.mjs measures it.
  const idle = await framesPerSecond(page, 2000);
  await clickWidget(page, 'training', 'train');
  await until('training to start', async () => (await state(page, 'training')).runs[1].steps >= 2, 20000);
  const drawn = await frames(page, 'training');
  const fps = await framesPerSecond(page, 2000);
  const during = await state(page, 'training');
  console.log(`# training in the page: ${fps.toFixed(1)} frames/s (${idle.toFixed(1)} idle), ` +
              `${during.examples_per_second.toFixed(0)} examples/s (both models), in ${during.workers} worker(s)`);
  assert.ok(during.workers >= 1, 'the pair trains in workers');
  assert.ok(await frames(page, 'training') > drawn, 'the figure draws while the pair trains');

  await until('30 steps of each model', async () => (await state(page, 'training')).runs.every((r) => r.steps >= 30), 60000);
  await clickWidget(page, 'training', 'pause');
  await until('the pause', async () => !(await state(page, 'training')).running, 5000);
  const paused = await state(page, 'training');
  for (const run of paused.runs) {
    assert.ok(run.loss_recent < run.loss_first - 0.3, `${run.model}: loss ${run.loss_first.toFixed(3)} → ${run.loss_recent.toFixed(3)}`);
  }
  await page.waitForTimeout(700);
  const later = await state(page, 'training');
  assert.deepEqual(later.runs.map((r) => r.steps), paused.runs.map((r) => r.steps), 'no step after Pause');

  await clickWidget(page, 'training', 'step');  // Step: one more batch each, then it pauses itself
  await until('one step', async () => {
    const s = await state(page, 'training');
    return !s.running && s.runs.every((r, i) => r.steps === paused.runs[i].steps + 1);
  }, 15000);
  assert.deepEqual(problems, []);
  await context.close();
});

test('alignment: a clicked output character is selected, its bars sum to 1, the peak matches the matrix', async () => {
  const { context, page, problems } = await openAt('alignment', 'date');
  await shippedLoaded(page);
  let s = await state(page, 'alignment');
  assert.equal(s.input, 'monday 19 september 1977');
  assert.equal(s.output, '1977-09-19', 'the shipped attention model is right on the lesson\'s example');

  await clickWidget(page, 'alignment', 'out-6');
  await until('output 6 selected', async () => (await state(page, 'alignment')).selected_output === 6);
  s = await state(page, 'alignment');
  const sum = s.bars.reduce((a, b) => a + b, 0);
  assert.ok(Math.abs(sum - 1) < 1e-4, `bars sum to ${sum}`);
  assert.deepEqual(s.bars, s.weights[6], 'the bars are row 6 of the matrix');
  for (let t = 0; t < 10; t++) {
    const row = s.weights[t];
    const argmax = row.indexOf(Math.max(...row));
    assert.equal(s.peaks[t].position, argmax, `peak of output ${t}`);
    assert.equal(s.peaks[t].input, s.input[argmax]);
  }

  // A click on a cell of the heatmap selects that cell's row.
  const map = await rect(page, 'alignment', 'map');
  const cols = s.input.length;
  await page.mouse.click(map.x + (3.5 * map.width) / cols, map.y + (8.5 * map.height) / 10);
  await until('output 8 selected by its cell', async () => (await state(page, 'alignment')).selected_output === 8);
  await until('the selected row in the URL', async () => /al\.row=8/.test(page.url()), 5000);
  assert.deepEqual(problems, []);
  await context.close();
});

test('alignment: a refused date says why and keeps the last map; a good one replaces it', async () => {
  const { context, page, problems } = await openAt('alignment', 'date');
  await shippedLoaded(page);
  const before = await state(page, 'alignment');
  const typeDate = (text) => typeIntoField(page, 'alignment', 'date', text);
  await typeDate('19/3/1994!');
  await until('the refusal', async () => (await state(page, 'alignment')).message !== '', 20000);
  let s = await state(page, 'alignment');
  assert.match(s.message, /'!'/, s.message);
  assert.match(s.message, /position 10/, s.message);
  assert.equal(s.input, before.input, 'the map is still the last good one');
  assert.deepEqual(s.weights, before.weights);

  await typeDate('The 4 of August, 2003');
  await until('the new map', async () => (await state(page, 'alignment')).input === 'the 4 of august, 2003', 20000);
  s = await state(page, 'alignment');
  assert.equal(s.message, '');
  assert.equal(s.output, '2003-08-04');
  assert.equal(s.weights.length, 10);
  assert.equal(s.weights[0].length, 'the 4 of august, 2003'.length);

  // Occlusion of the day digit changes the day.
  await page.locator('canvas[data-figure="probes"]').scrollIntoViewIfNeeded();
  await until('the probes figure to draw the new string', async () => (await rect(page, 'probes', 'in-20')) !== null, 10000);
  await clickWidget(page, 'probes', 'in-4');
  await until('the masked decode', async () => (await state(page, 'probes')).masked === 4);
  const p = await state(page, 'probes');
  assert.notEqual(p.masked_output, p.output, 'blanking the day changes the output');
  assert.equal(p.grad_norms.plain.length, 21);
  assert.ok(p.grad_norms.plain[0] < p.grad_norms.plain[20], 'plain: the gradient fades towards the first character');
  assert.deepEqual(problems, []);
  await context.close();
});

test('results: a header click ranks every row by that column', async () => {
  const { context, page, problems } = await openAt('results', 'save-csv');
  // Both shipped models checked by a worker: the page's two rows (nothing else trains here).
  await until('rows from the page', async () => (await state(page, 'results')).rows.filter((r) => r.origin === 'page').length === 2, 60000);
  const sortedBy = (rows, key, descending) => rows.every((r, i) => {
    if (i === 0 || r[key] === null || rows[i - 1][key] === null) return true;
    return descending ? rows[i - 1][key] >= r[key] : rows[i - 1][key] <= r[key];
  });
  await clickWidget(page, 'results', 'header-per_char');
  await until('ranked by per-char', async () => (await state(page, 'results')).sort === 'per_char');
  let s = await state(page, 'results');
  assert.equal(s.descending, true);
  assert.ok(sortedBy(s.rows, 'per_char', true), 'per-char, highest first');
  const values = s.rows.map((r) => r.per_char);
  assert.equal(s.marks.per_char.highest, values.indexOf(Math.max(...values)));
  assert.equal(s.marks.per_char.lowest, values.indexOf(Math.min(...values)));

  await clickWidget(page, 'results', 'header-per_char');
  await until('the order turned over', async () => (await state(page, 'results')).descending === false);
  assert.ok(sortedBy((await state(page, 'results')).rows, 'per_char', false), 'per-char, lowest first');

  await clickWidget(page, 'results', 'header-parameters');
  await until('ranked by parameters', async () => (await state(page, 'results')).sort === 'parameters');
  s = await state(page, 'results');
  assert.ok(sortedBy(s.rows, 'parameters', true));
  // The largest is Bahdanau's at width 64 (assets/published.json's means are rows too), by hand:
  // embeddings 40·32 + 13·16 = 1,488; two encoder GRUs 2·(192·32 + 192·64 + 2·192) = 37,632; the
  // decoder GRU on [y ; c] (16 + 128 wide) 192·144 + 192·64 + 384 = 40,320; s_0's layer 64·64 + 64
  // = 4,160; the additive score 64·128 + 64·64 + 64 = 12,352; the deep output 13·(3·64 + 16) + 13
  // = 2,717: 98,669.
  assert.equal(s.rows[0].parameters, 98669);
  assert.equal(s.rows[0].model, 'bahdanau');
  const published = s.rows.filter((r) => r.run === 'published, mean of 3 seeds');
  assert.equal(published.length, 16, 'eight designs at widths 16 and 64');
  assert.ok(published.some((r) => r.model === 'luong-local general + input feeding' && r.width === 64));

  // The saved files are made in the page: a CSV of the rows and real safetensors.
  const [csv] = await Promise.all([page.waitForEvent('download'), clickWidget(page, 'results', 'save-csv')]);
  const text = (await streamText(await csv.createReadStream())).split('\n');
  assert.equal(text[0], 'origin,run,task,model,width,exact,per_token,bleu,aer,parameters,train_seconds');
  assert.equal(text.filter((line) => line).length, s.rows.length + 1);
  const [weights] = await Promise.all([page.waitForEvent('download'), clickWidget(page, 'results', 'save-attention')]);
  const bytes = await streamBytes(await weights.createReadStream());
  const headerLength = Number(bytes.readBigUInt64LE(0));
  const header = JSON.parse(bytes.subarray(8, 8 + headerLength).toString());
  assert.deepEqual(header['attention.v'].shape, [64]);
  assert.equal(header.__metadata__.model, 'attention');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the shipped attention model gets ≥ 0.99 exact in the page, as it did natively', async () => {
  const { context, page, problems } = await openAt('sweep', 'run-all');
  await until('the shipped models to be evaluated', async () => {
    const s = await state(page, 'sweep');
    return s.shipped.attention && s.shipped.plain;
  }, 30000);
  const s = await state(page, 'sweep');
  console.log(`# shipped models in the page: attention exact ${s.shipped.attention.exact.toFixed(4)} (natively ${s.shipped.attention.native_exact}), ` +
              `plain exact ${s.shipped.plain.exact.toFixed(4)} per-char ${s.shipped.plain.per_char.toFixed(4)}`);
  assert.ok(s.shipped.attention.exact >= 0.99, `attention exact ${s.shipped.attention.exact}`);
  assert.ok(Math.abs(s.shipped.attention.exact - s.shipped.attention.native_exact) <= 2 / 1200, 'same as natively');
  assert.ok(Math.abs(s.shipped.plain.exact - s.shipped.plain.native_exact) <= 2 / 1200, 'plain: same as natively');
  assert.ok(s.cells.some((c) => c.origin === 'native'), 'the native sweep is shown');
  const p = s.views.plain_per_position;
  assert.ok(p[0] > 0.95 && p[9] < 0.3, `plain per position: year ${p[0]}, day ${p[9]}`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the sweep fills in the page\'s rows, largest cells first, in workers', async () => {
  const { context, page, problems } = await openAt('sweep', 'run-all', '?sw.epochs=1');
  assert.equal((await state(page, 'sweep')).epochs, 1, 'the URL sets the epochs');
  await clickWidget(page, 'sweep', 'run-all');
  const pageCells = async () => (await state(page, 'sweep')).cells.filter((c) => c.origin === 'page');
  await until('a cell to train', async () => (await state(page, 'sweep')).training.length > 0, 20000);
  const training = await state(page, 'sweep');
  assert.ok(training.training.length >= 1 && training.training.length <= training.workers, 'a cell per worker');
  // The largest cells first, as many as there are workers (two on a 2-core machine).
  const largest = [{ model: 'attention', width: 64 }, { model: 'plain', width: 64 }, { model: 'attention', width: 32 }];
  const key = (c) => `${c.model} ${c.width}`;
  assert.deepEqual(training.training.map(key).sort(), largest.slice(0, training.training.length).map(key).sort(), 'the largest cells start first');
  const both64 = (cells) => ['attention 64', 'plain 64'].every((k) => cells.map(key).includes(k));
  await until('the width-64 runs', async () => both64(await pageCells()), 90000);
  await clickWidget(page, 'sweep', 'pause');
  // Both width-64 cells, and whatever smaller cell another worker finished meanwhile, once each.
  const cells = await pageCells();
  assert.ok(both64(cells) && new Set(cells.map(key)).size === cells.length, JSON.stringify(cells.map(key)));
  for (const c of cells) assert.ok(c.per_char > 0.05 && c.per_char <= 1, `${c.model} ${c.width}: ${c.per_char}`);
  assert.deepEqual(problems, []);
  await context.close();
});

async function streamBytes(stream) {
  const chunks = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}
async function streamText(stream) {
  return (await streamBytes(stream)).toString('utf8');
}

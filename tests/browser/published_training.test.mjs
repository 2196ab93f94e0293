// tests/browser/published_training.test.mjs — the published designs in the page: Figure 3 trains
// Bahdanau's or Luong's model against the plain one (chosen in the figure or by the link's
// tr.model, tr.scorer, tr.feeding), a link's impossible combination is refused by name, the
// trained model's map and occlusion follow it in Figures 5 and 6, and the ranked results name it;
// a broken assets/published.json is refused with the reason and the other rows stay.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { clickWidget, openWatched, rect, serve, site, state, until, useBrowser } from './helpers.mjs';

const env = useBrowser({ folder: process.env.LOOKBACK_SITE || undefined });
const folder = process.env.LOOKBACK_SITE || site;

async function openAt(figure, widget, query = '') {
  const context = await env.browser.newContext({ viewport: { width: 1000, height: 900 } });
  const opened = await openWatched(context, env.url + query);
  await opened.page.locator(`canvas[data-figure="${figure}"]`).scrollIntoViewIfNeeded();
  await until(`${figure} to draw ${widget}`, async () => (await rect(opened.page, figure, widget)) !== null, 20000);
  return { context, ...opened };
}

test("Luong's model trains against the plain one, and the other figures follow it", async () => {
  const { context, page, problems } = await openAt('training', 'train',
    '?tr.model=luong&tr.scorer=concat&tr.feeding=1&tr.width=8&tr.epochs=1');
  let s = await state(page, 'training');
  assert.deepEqual(s.url_messages, []);
  assert.deepEqual([s.model, s.scorer, s.input_feeding, s.width], ['luong', 'concat', true, 8]);
  assert.equal(s.runs[1].model, 'luong concat + input feeding');
  // By hand at H = 8: embeddings 40·32 + 13·16 = 1,488; the encoder GRU 24·32 + 24·8 + 48 = 1,008;
  // the decoder GRU on [y ; h̃] (16 + 8 wide) 24·24 + 24·8 + 48 = 816; concat's W_e, W_d and v
  // 64 + 64 + 8 = 136; W_c [8 × 16] = 128; the output 13·8 + 13 = 117: 3,693.
  assert.equal(s.runs[1].parameters, 3693);

  // Input feeding off by its checkbox: new runs, one input narrower (24·8 fewer weights).
  await clickWidget(page, 'training', 'input-feeding');
  await until('input feeding off', async () => (await state(page, 'training')).input_feeding === false);
  s = await state(page, 'training');
  assert.equal(s.runs[1].model, 'luong concat');
  assert.equal(s.runs[1].parameters, 3693 - 24 * 8);
  assert.match(await page.evaluate(() => location.search), /tr\.model=luong/);

  await clickWidget(page, 'training', 'train');
  await until('one epoch of each', async () => (await state(page, 'training')).runs.every((r) => r.done), 90000);

  // Figure 5 can show the model trained here; Figure 6's occlusion follows it, and its gradient
  // path says why it is drawn for the lesson's model only.
  await page.locator('canvas[data-figure="alignment"]').scrollIntoViewIfNeeded();
  await until('the alignment figure', async () => (await rect(page, 'alignment', 'model-source-trained here')) !== null, 20000);
  await clickWidget(page, 'alignment', 'model-source-trained here');
  await until('the map of the model trained here', async () => (await state(page, 'alignment')).model === 'page', 10000);
  const map = await state(page, 'alignment');
  assert.match(map.model_label, /luong concat model trained in this page/);
  for (const row of map.weights) assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-4, 'each row sums to 1');
  const probes = await state(page, 'probes');
  assert.match(probes.gradient_note, /lesson's own attention model/);
  assert.deepEqual(probes.grad_norms.attention, []);

  // The ranked results hold both runs, named by their designs.
  const rows = (await state(page, 'results')).rows.filter((r) => r.run.startsWith('training'));
  assert.deepEqual(rows.map((r) => r.model).sort(), ['luong concat', 'plain']);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a link that asks a design for what it does not have is refused by name', async () => {
  const cases = [
    ['?tr.model=bahdanau&tr.scorer=dot', 'tr.scorer', ['bahdanau', 'additive', false]],
    ['?tr.scorer=concat', 'tr.scorer', ['attention', 'additive', false]],       // concat is Luong's
    ['?tr.model=attention&tr.feeding=1', 'tr.feeding', ['attention', 'additive', false]],
    ['?tr.model=transformer', 'tr.model', ['attention', 'additive', false]],   // Figure 8's, not here
    ['?tr.feeding=1&tr.model=luong-local&tr.scorer=concat', 'tr.scorer', ['luong-local', 'general', true]],
  ];
  for (const [query, key, expected] of cases) {
    const { context, page, problems } = await openAt('training', 'train', query);
    const s = await state(page, 'training');
    assert.equal(s.url_messages.length, 1, `${query}: ${JSON.stringify(s.url_messages)}`);
    assert.ok(s.url_messages[0].includes(`${key}=`), s.url_messages[0]);
    // What the refusal says a design takes is the settings schema's: every design's scorers.
    const says = { 'tr.scorer': ['attention: additive, dot or general', 'bahdanau: additive', 'luong: dot, general or concat',
                                 'luong-local: dot or general'],
                   'tr.feeding': ['1 or 0, and 1 for luong and luong-local only'],
                   'tr.model': ['one of attention, bahdanau, luong or luong-local'] }[key];
    for (const words of says) assert.ok(s.url_messages[0].includes(words), `${s.url_messages[0]} lacks '${words}'`);
    assert.deepEqual([s.model, s.scorer, s.input_feeding], expected, query);
    assert.deepEqual(problems, []);
    await context.close();
  }
});

test('a broken assets/published.json is refused with the reason, and every other row stays', async (t) => {
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'lookback-broken-published-'));
  fs.cpSync(folder, copy, { recursive: true });
  const file = path.join(copy, 'assets/published.json');
  const published = JSON.parse(fs.readFileSync(file, 'utf8'));
  published.summary[3].scorer = 'additive';  // a Luong model with a scorer it does not take
  fs.writeFileSync(file, JSON.stringify(published));
  const server = await serve(copy);
  t.after(() => server.close());  // also when an assertion fails: the server must not outlive the test
  const context = await env.browser.newContext({ viewport: { width: 1000, height: 900 } });
  const { page, problems } = await openWatched(context, server.url);
  await page.locator('canvas[data-figure="results"]').scrollIntoViewIfNeeded();
  await until('the refusal', async () => (await state(page, 'results')).published_note !== '', 30000);
  await until('the sweep rows', async () => (await state(page, 'results')).rows.some((r) => r.run === 'lookback sweep'), 30000);
  const s = await state(page, 'results');
  assert.match(s.published_note, /assets\/published\.json could not be read: scorer of the luong model must be dot, general or concat, not 'additive'/);
  assert.equal(s.rows.filter((r) => r.run.startsWith('published')).length, 0, 'no half-read file');
  assert.equal(s.rows.filter((r) => r.run === 'lookback sweep').length, 8);
  assert.deepEqual(problems, []);
  await context.close();
});

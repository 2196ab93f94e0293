// tests/browser/tasks.test.mjs — a task other than the dates trained in the page, in headless
// Chromium: tr.task picks the translation for both runs; after two epochs in the workers, the
// attention run reports an AER (the plain one none, it has no map) and both a BLEU, drawn as
// charts; the results table, filtered to the task (rs.task), holds those two rows beside the
// alignment sweep's seven, whose BLEU and AER are the served asset's means; the checked figure
// reads the run trained here on its task (ck.task), and so does Figure 5 once asked, on the
// translation's own sentences (its probes stay with the dates).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clickWidget, openWatched, rect, state, until, useBrowser } from './helpers.mjs';

const env = useBrowser({ folder: process.env.LOOKBACK_SITE || undefined });

test('translation trained in the page: AER and BLEU per epoch, in the results and the map check', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const { page, problems } = await openWatched(context, env.url + '?tr.task=translation&tr.width=32&tr.epochs=2&rs.task=translation&ck.task=translation');
  await page.locator('canvas[data-figure="training"]').scrollIntoViewIfNeeded();
  await until('the training figure', async () => (await rect(page, 'training', 'train')) !== null, 20000);
  const before = await state(page, 'training');
  assert.equal(before.task, 'translation');
  assert.deepEqual(before.url_messages, []);

  await clickWidget(page, 'training', 'train');
  await until('both runs done', async () => (await state(page, 'training')).runs.every((r) => r.done), 240000);
  const trained = await state(page, 'training');
  const [plain, attention] = trained.runs;
  assert.equal(plain.epochs.length, 2);
  const [p, a] = [plain.epochs[1], attention.epochs[1]];
  assert.equal(p.aer, null, 'the plain model has no map to score');
  assert.ok(p.bleu >= 0 && p.bleu <= 1, `plain BLEU ${p.bleu}`);
  assert.ok(a.aer >= 0 && a.aer <= 1, `attention AER ${a.aer}`);
  assert.ok(a.bleu >= 0 && a.bleu <= 1, `attention BLEU ${a.bleu}`);
  assert.ok(await rect(page, 'training', 'aer-plot'), 'the AER chart is drawn');
  assert.ok(await rect(page, 'training', 'bleu-plot'), 'the BLEU chart is drawn');
  console.log(`# translation, width 32, 2 epochs in the page: plain exact ${p.exact.toFixed(4)} BLEU ${p.bleu.toFixed(4)}; ` +
              `attention exact ${a.exact.toFixed(4)} BLEU ${a.bleu.toFixed(4)} AER ${a.aer.toFixed(4)}`);

  // The results: the task's rows only, the two runs with their BLEU and AER, and the sweep's means.
  await page.locator('canvas[data-figure="results"]').scrollIntoViewIfNeeded();
  await until('the results', async () => (await state(page, 'results')).rows.some((r) => r.origin === 'page'), 20000);
  const results = await state(page, 'results');
  assert.equal(results.task, 'translation');
  assert.ok(results.rows.every((r) => r.task === 'translation'));
  const page_rows = results.rows.filter((r) => r.origin === 'page');
  assert.equal(page_rows.length, 2);
  const attentionRow = page_rows.find((r) => r.model !== 'plain');
  assert.ok(Math.abs(attentionRow.aer - a.aer) < 1e-6, 'the run\'s AER');
  assert.ok(Math.abs(attentionRow.bleu - a.bleu) < 1e-6, 'the run\'s BLEU');
  const served = await page.evaluate(() => fetch('assets/alignment-translation.json').then((r) => r.json()));
  const sweepRows = results.rows.filter((r) => r.run.startsWith('alignment sweep'));
  assert.equal(sweepRows.length, served.summary.length);
  for (const m of served.summary) {
    const row = sweepRows.find((r) => r.model.startsWith(m.model.replace('-all', '').replace('-first', '')) &&
                                      Math.abs(r.exact - m.exact.mean) < 1e-12);
    assert.ok(row, `a row for ${m.model}`);
    assert.ok(Math.abs(row.bleu - m.bleu.mean) < 1e-12, `${m.model} BLEU`);
    if (m.alignment) assert.ok(Math.abs(row.aer - m.alignment.aer.mean) < 1e-12, `${m.model} AER`);
    else assert.equal(row.aer, null);
  }

  // The map check reads the run trained here, once asked.
  await page.locator('canvas[data-figure="checked"]').scrollIntoViewIfNeeded();
  await until('the checked map', async () => (await state(page, 'checked')).weights.length > 0 &&
                                            (await rect(page, 'checked', 'model-source-trained here')) !== null, 30000);
  await clickWidget(page, 'checked', 'model-source-trained here');
  await until('the run trained here', async () => (await state(page, 'checked')).model === 'page', 10000);
  const checked = await state(page, 'checked');
  assert.match(checked.model_label, /trained in this page/);
  assert.equal(checked.task, 'translation');
  for (const row of checked.weights) assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-4, 'a row sums to 1');

  // Figure 5, asked for the run trained here, shows it on its own task, the translation; the
  // probes keep the date models and say why.
  await page.locator('canvas[data-figure="alignment"]').scrollIntoViewIfNeeded();
  await until('the alignment map', async () => (await rect(page, 'alignment', 'model-source-trained here')) !== null, 30000);
  await clickWidget(page, 'alignment', 'model-source-trained here');
  await until('Figure 5 on the translation', async () => (await state(page, 'alignment')).task === 'translation', 10000);
  const figure5 = await state(page, 'alignment');
  assert.equal(figure5.model, 'page');
  assert.deepEqual(figure5.columns, figure5.input.split(' '), 'its columns are the sentence\'s words');
  assert.match(figure5.guards, /give the right alignment/, 'the translation comes with its links');
  assert.match((await state(page, 'probes')).elsewhere, /probes read the date models/);
  assert.deepEqual(problems, []);
  await context.close();
});

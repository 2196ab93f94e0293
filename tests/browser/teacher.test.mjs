// tests/browser/teacher.test.mjs — a teacher's own data set, as a teacher uses it: the page's real
// example of 5,000 English words spelled to sounds (no alignment) is opened, trained plain against
// attention, and its attention model and held-out predictions are saved; the command line then
// reads the saved weights and must write what the page's CSV says for each held-out input. Every
// text of the figures on this task is checked for what belongs to other tasks (dates, AER, NaN).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { clickWidget, openWatched, rect, root, screenshotPath, state, typeIntoField, until, useBrowser } from './helpers.mjs';

const env = useBrowser();
const status = (page) => page.textContent('#own-pairs-status');
const thousands = (n) => n.toLocaleString('en-US');

// RFC 4180, written here apart from the module's writer: quoted fields with doubled quotes.
function readCsv(text) {
  const rows = [];
  let row = [], field = '', quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') field += '"', i++;
      else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') row.push(field), field = '';
    else if (c === '\n') row.push(field), rows.push(row), row = [], field = '';
    else field += c;
  }
  if (field || row.length) row.push(field), rows.push(row);
  return rows;
}

// The fewest tokens inserted, deleted or replaced (Levenshtein), written here from its definition.
function editDistance(a, b) {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current.push(Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1)));
    previous = current;
  }
  return previous[b.length];
}

test('a teacher\'s data set: opened, trained, its model and predictions saved, read back by the command line', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  const { page, problems } = await openWatched(context, env.url + '?tr.width=16&tr.epochs=1');
  const served = await page.evaluate(() => fetch('examples/spelling-to-sounds.tsv').then((r) => r.text()));
  const pairs = served.trim().split('\n').map((line) => line.split('\t'));
  assert.equal(pairs.length, 5000);

  await page.locator('#own-pairs').scrollIntoViewIfNeeded();
  await page.click('button[data-own-pairs-example="spelling-to-sounds.tsv"]');
  await until('the spelling task to be used', async () => (await status(page)).includes('Figure 3'), 30000);
  const heldOut = 500, train = 4500;  // 10 % of 5,000 distinct inputs
  const letters = new Set(pairs.flatMap(([input]) => input.split(' '))).size;
  const sounds = new Set(pairs.flatMap(([, output]) => output.split(' '))).size;
  assert.ok((await status(page)).includes(`5,000 pairs read; ${thousands(train)} to train, ${heldOut} held out; ` +
                                         `${letters} input and ${sounds} output words; no alignments.`), await status(page));

  // Figure 3, both models, one epoch at width 16.
  await page.locator('canvas[data-figure="training"]').scrollIntoViewIfNeeded();
  await until('the training figure', async () => (await rect(page, 'training', 'train')) !== null, 20000);
  assert.equal(await rect(page, 'training', 'formats'), null, 'no date dial on this task');
  await clickWidget(page, 'training', 'train');
  await until('both runs done', async () => (await state(page, 'training')).runs.every((r) => r.done), 300000);
  const trained = await state(page, 'training');
  for (const run of trained.runs) {
    assert.equal(run.epochs[0].aer, null, `${run.model}: no AER without alignments`);
    assert.ok(run.epochs[0].token_error_rate >= 0, `${run.model}: a token error rate`);
  }
  assert.ok(await rect(page, 'training', 'error-rate-plot'), 'the error rate is drawn');
  assert.equal(await rect(page, 'training', 'aer-plot'), null, 'no AER chart without alignments');
  assert.equal(await rect(page, 'training', 'bleu-plot'), null, 'no BLEU on phonemes');
  const figure3Text = await page.textContent('#training-text');
  assert.match(figure3Text, /500 held-out pairs/);
  assert.match(figure3Text, /per-token/);
  assert.doesNotMatch(figure3Text, /AER|BLEU|per-word|NaN|nan/);
  // BLEU is for translations: on phonemes it is drawn only when the teacher asks, and then in the
  // results' rows too.
  await clickWidget(page, 'training', 'bleu');
  await until('BLEU asked for', async () => (await state(page, 'training')).bleu_asked, 10000);
  await until('the BLEU chart', async () => (await rect(page, 'training', 'bleu-plot')) !== null, 10000);
  assert.match(page.url(), /tr\.bleu=1/);
  assert.match(await page.textContent('#training-text'), /BLEU/);

  // Figure 7 saves the run's attention model on this task, named after it, the task inside.
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'lookback-teacher-'));
  await page.locator('canvas[data-figure="results"]').scrollIntoViewIfNeeded();
  await until('the results figure', async () => (await rect(page, 'results', 'save-attention')) !== null, 20000);
  const pageRows = (await state(page, 'results')).rows.filter((r) => r.origin === 'page');
  assert.equal(pageRows.length, 2);
  for (const r of pageRows) assert.ok(r.bleu >= 0 && r.bleu <= 1, `${r.model}: BLEU in the results, asked for`);
  assert.match((await state(page, 'results')).weights_note, /^Weights of your-pairs \(.*\): plain: trained in this page \(width 16\); attention: trained in this page \(width 16\)\.$/);
  const [weightsDownload] = await Promise.all([page.waitForEvent('download'), clickWidget(page, 'results', 'save-attention')]);
  assert.equal(weightsDownload.suggestedFilename(), 'lookback-your-pairs-attention-16-page.safetensors');
  const weights = path.join(folder, weightsDownload.suggestedFilename());
  await weightsDownload.saveAs(weights);
  const bytes = fs.readFileSync(weights);
  const header = JSON.parse(bytes.subarray(8, 8 + Number(bytes.readBigUInt64LE(0))).toString());
  assert.equal(header.__metadata__.task, 'your-pairs');
  assert.ok(header.__metadata__.task_input, 'the task\'s vocabularies travel with the weights');

  // Figure 5b on the run trained here: no alignment text, and the list of every held-out pair.
  const check = page.locator('figure:has(canvas[data-figure="checked"])');
  await page.locator('canvas[data-figure="checked"]').scrollIntoViewIfNeeded();
  await until('the map of the pairs', async () => (await state(page, 'checked')).model === 'page', 30000);
  await until('every held-out pair decoded', async () => (await state(page, 'checked')).held_out_list?.decoded, 60000);
  let checked = await state(page, 'checked');
  assert.equal(checked.aligned, false);
  assert.equal(checked.scores, null, 'nothing scored without alignments');
  assert.equal(checked.held_out_list.total, heldOut);
  const checkedText = await page.textContent('#checked-text');
  assert.doesNotMatch(checkedText, /AER|0 of 0|NaN|nan|date/, 'no alignment or date words on this task');

  const [csvDownload] = await Promise.all([page.waitForEvent('download'), clickWidget(page, 'checked', 'save-predictions')]);
  assert.equal(csvDownload.suggestedFilename(), 'lookback-your-pairs-attention-held-out.csv');
  const csvFile = path.join(folder, csvDownload.suggestedFilename());
  await csvDownload.saveAs(csvFile);
  const [head, ...rows] = readCsv(fs.readFileSync(csvFile, 'utf8'));
  assert.deepEqual(head, ['input', 'target', 'output', 'exact', 'edit_distance', 'token_marks']);
  assert.equal(rows.length, heldOut);
  const fromFile = new Map(pairs.map(([input, output]) => [input, output]));
  for (const [input, target, output, exact, edits] of rows) {
    assert.equal(fromFile.get(input), target, `${input}: the file's target`);
    const distance = editDistance(output.split(' ').filter(Boolean), target.split(' '));
    assert.equal(Number(edits), distance, `${input}: edits of "${output}" against "${target}"`);
    assert.equal(exact === 'true' || exact === '1', output === target, `${input}: exact`);
  }
  assert.equal(rows.filter(([, target, output]) => output !== target).length, checked.held_out_list.wrong);

  // The command line, given the saved weights alone, writes what the page's CSV says.
  const sample = rows.slice(0, 40);
  const lines = execFileSync(path.join(root, 'build/native/lookback'),
    ['predict', '--weights', weights, '--json', ...sample.map(([input]) => input)], { encoding: 'utf8' })
    .trim().split('\n').map((line) => JSON.parse(line));
  assert.equal(lines.length, sample.length);
  for (const [k, [input, , output]] of sample.entries()) assert.equal(lines[k].output, output, `${input}: the command line's output`);

  // The list finds pairs by a piece of their input and keeps the wrong ones if asked.
  await typeIntoField(page, 'checked', 'list-filter', 'c h');
  await until('the filtered list', async () => (await state(page, 'checked')).held_out_list.filter === 'c h', 10000);
  checked = await state(page, 'checked');
  assert.equal(checked.held_out_list.matching, rows.filter(([input]) => input.includes('c h')).length);
  for (const r of checked.held_out_list.rows) assert.ok(r.input.includes('c h'), r.input);
  await check.getByRole('checkbox', { name: 'only the wrong ones' }).press('Space');
  await until('the wrong ones only', async () => (await state(page, 'checked')).held_out_list.wrong_only, 10000);
  checked = await state(page, 'checked');
  assert.equal(checked.held_out_list.matching, rows.filter(([input, target, output]) => input.includes('c h') && output !== target).length);
  for (const r of checked.held_out_list.rows) assert.equal(r.exact, false);
  // Ranked by edits, most first; a row's number opens its map.
  const edits = checked.held_out_list.rows.map((r) => r.edits);
  assert.deepEqual(edits, [...edits].sort((a, b) => b - a));
  if (checked.held_out_list.rows.length > 0) {
    const first = checked.held_out_list.rows[0];
    await clickWidget(page, 'checked', `open-${first.number}`);
    await until('its map', async () => (await state(page, 'checked')).example === first.number - 1, 10000);
    assert.equal((await state(page, 'checked')).columns.join(' '), first.input);
  }
  // A word typed whole is read as its letters.
  await typeIntoField(page, 'checked', 'input', 'knight');
  await until('the typed word', async () => (await state(page, 'checked')).typed, 20000);
  assert.deepEqual((await state(page, 'checked')).columns, ['k', 'n', 'i', 'g', 'h', 't']);
  await page.locator('canvas[data-figure="checked"]').screenshot({ path: screenshotPath('teacher-checked-1280.png') });

  // Figure 5 reads the model trained in Figure 3 on its task: a held-out pair's map, token by
  // token, its peaks, a step's attention moved, a typed word; the probes stay with the dates.
  await page.locator('canvas[data-figure="alignment"]').scrollIntoViewIfNeeded();
  await until('Figure 5 drawn', async () => (await rect(page, 'alignment', 'model-source-trained here')) !== null, 20000);
  await clickWidget(page, 'alignment', 'model-source-trained here');
  await until('Figure 5 on the pairs', async () => (await state(page, 'alignment')).task === 'your-pairs', 20000);
  let figure5 = await state(page, 'alignment');
  assert.equal(fromFile.get(figure5.input), figure5.target, 'a held-out pair of the file');
  assert.deepEqual(figure5.columns, figure5.input.split(' '));
  assert.deepEqual(figure5.rows, figure5.output.split(' ').filter(Boolean), 'rows: the phonemes written');
  assert.equal(figure5.weights.length, figure5.rows.length);
  for (const [t, row] of figure5.weights.entries()) {
    assert.equal(row.length, figure5.columns.length);
    assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-4, `row ${t} sums to 1`);
    const argmax = row.indexOf(Math.max(...row));
    assert.equal(figure5.peaks[t].position, argmax, `row ${t}'s peak`);
    assert.equal(figure5.peaks[t].input, figure5.columns[argmax]);
  }
  assert.match(figure5.guards, /give no alignment/);
  assert.match(figure5.model_label, /trained in this page on your-pairs \(epoch 1\)/);
  assert.doesNotMatch(page.url(), /al\.(ex|row|move)=/, 'no link names a string of a model only this page has');
  const figure5Text = await page.textContent('#alignment-text');
  assert.doesNotMatch(figure5Text, /date|year|NaN|nan/);
  assert.match((await state(page, 'probes')).elsewhere, /probes read the date models/);
  // The bars' middle: that step's attention all on one input, decoded again.
  await clickWidget(page, 'alignment', 'bars');
  await until('the move', async () => (await state(page, 'alignment')).moved !== null, 20000);
  figure5 = await state(page, 'alignment');
  const { step, first, last } = figure5.move;
  assert.equal(first, last);
  assert.equal(figure5.moved.error, '');
  assert.equal(figure5.moved.weights.length, figure5.moved.output.split(' ').filter(Boolean).length);
  assert.deepEqual(figure5.moved.weights[step], figure5.columns.map((_, j) => (j === first ? 1 : 0)), 'the moved row');
  await page.locator('canvas[data-figure="alignment"]').screenshot({ path: screenshotPath('teacher-alignment-1280.png') });
  await typeIntoField(page, 'alignment', 'input', 'knight');
  await until('the typed word in Figure 5', async () => (await state(page, 'alignment')).input === 'k n i g h t', 20000);
  assert.equal((await state(page, 'alignment')).example, -1);

  // Pasted as characters, spelled-out words get a hint; another choice of tokens waits for Use.
  await page.locator('#own-pairs').scrollIntoViewIfNeeded();
  await page.check('input[name="own-pairs-tokens"][value="characters"]');
  assert.match(await status(page), /^Tokens: characters from the next Use these pairs; until then Figure 3 trains on the task as it was made, in words\./);
  await page.fill('#own-pairs-text', served.split('\n').slice(0, 300).join('\n'));
  await page.click('#own-pairs-use');
  await until('the pasted pairs', async () => (await status(page)).startsWith('300 pairs read'), 30000);
  assert.match(await status(page), /Every line has spaces on both sides.*choose Tokens: words and Use these pairs again\./);
  await page.check('input[name="own-pairs-tokens"][value="words"]');
  await page.click('#own-pairs-use');
  await until('the pairs as words', async () => /input and \d+ output words/.test(await status(page)), 30000);
  assert.doesNotMatch(await status(page), /Every line has spaces/);
  // Figure 5 showed the task now replaced: its run is gone, so it is back on the dates with the
  // shipped model, and the probes with it; its text, kept current off screen, is the dates'.
  await until('Figure 5 back on the dates', async () => (await state(page, 'alignment')).task === 'dates', 20000);
  figure5 = await state(page, 'alignment');
  assert.equal(figure5.model, 'shipped');
  assert.equal(figure5.weights.length, 10);
  assert.equal((await state(page, 'probes')).elsewhere, '');
  await until('its text on the dates', async () => /shipped attention model .* writes \d{4}-\d\d-\d\d/.test(await page.textContent('#alignment-text')), 20000);
  assert.deepEqual(problems, []);
  await context.close();
});

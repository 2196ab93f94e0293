// tests/browser/tables.test.mjs — a figure's table is described once (web/runtime/figure_table.h)
// and drawn, mirrored for the keyboard and screen readers, and written in the text alternative
// from that description: in headless Chromium the mirror's table and the text alternative's say
// the same header and the same cells, on a desktop and on a phone (where the canvas draws fewer
// columns and shorter numbers, but the mirror keeps the whole table); the alignment figure's
// peaks are the argmax of the weights it reports, and the results are ranked as their header says.
// LOOKBACK_SITE overrides build/site.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openWatched, state, until, useBrowser } from './helpers.mjs';

const env = useBrowser({ folder: process.env.LOOKBACK_SITE || undefined });

// The mirror's table of `figure` ({id}: its control), as header and rows of text.
const mirrored = (page, figure) => page.evaluate((name) => {
  const mirror = document.querySelector(`canvas[data-figure="${name}"]`).previousElementSibling;
  const table = mirror?.querySelector('.figure-mirror-table table');
  if (!table || !table.querySelector('tbody tr')) return null;
  return { name: table.getAttribute('aria-label'),
    header: [...table.querySelectorAll('thead th')].map((th) => th.textContent),
    rows: [...table.querySelectorAll('tbody tr')].map((tr) => [...tr.children].map((c) => c.textContent)) };
}, figure);

// The text alternative's tables of `figure`, each as header and rows of text.
const written = (page, figure) => page.evaluate((name) => [...document.querySelectorAll(`[data-figure-alt="${name}"] table`)].map((table) => ({
  caption: table.querySelector('caption')?.textContent ?? null,
  header: [...table.querySelectorAll('thead th')].map((th) => th.textContent),
  rows: [...table.querySelectorAll('tbody tr')].map((tr) => [...tr.children].map((c) => c.textContent)),
})), figure);

// Scrolls to `figure` and waits for its mirror's table and a text alternative with the same header.
async function bothTables(page, figure) {
  await page.locator(`canvas[data-figure="${figure}"]`).scrollIntoViewIfNeeded();
  let mirror = null, alternative = null;
  await until(`${figure}: its table mirrored and written`, async () => {
    mirror = await mirrored(page, figure);
    alternative = mirror && (await written(page, figure)).find((t) => t.header.join('|') === mirror.header.join('|'));
    return Boolean(alternative) && alternative.rows.length === mirror.rows.length;
  }, 40000);
  return { mirror, alternative };
}

for (const [label, viewport] of [['desktop', { width: 1280, height: 900 }], ['phone', { width: 390, height: 844 }]]) {
  test(`${label}: each figure's table says the same in its mirror and its text alternative`, async () => {
    const context = await env.browser.newContext({ viewport });
    const { page, problems } = await openWatched(context, env.url);
    for (const figure of ['alignment', 'sweep', 'checked', 'results']) {
      const { mirror, alternative } = await bothTables(page, figure);
      assert.deepEqual(alternative.rows, mirror.rows, `${figure}: the same cells`);
      assert.ok(mirror.rows.every((row) => row.length === mirror.header.length), `${figure}: a cell for every column`);
      if (figure === 'checked') assert.equal(alternative.caption, mirror.name, 'the scores table: its caption is its name');
    }

    // The peaks: each row's argmax of the weights the figure reports, the weight to three decimals.
    const { mirror: peaks } = await bothTables(page, 'alignment');
    assert.deepEqual(peaks.header, ['output', 'peak at', 'input there', 'weight']);
    const s = await state(page, 'alignment');
    s.weights.forEach((row, t) => {
      const argmax = row.indexOf(Math.max(...row));
      assert.deepEqual(peaks.rows[t], [`${t} ‘${s.output[t]}’`, String(argmax), s.input[argmax] === ' ' ? 'space' : `‘${s.input[argmax]}’`,
        row[argmax].toFixed(3)], `output ${t}`);
    });

    // The width sweep: four decimals even where a phone's canvas draws three; the origins by name.
    const { mirror: sweep } = await bothTables(page, 'sweep');
    assert.equal(sweep.rows.length, 12, 'three rows for each of the four widths');
    assert.deepEqual([...new Set(sweep.rows.map((r) => r[1]))], ['source (TensorFlow)', 'lookback sweep (native)', 'this page']);
    for (const row of sweep.rows.filter((r) => r[1] !== 'this page')) assert.ok(row.slice(2).every((v) => /^\d\.\d{4}$/.test(v)), `${row}`);

    // The results: every column, even those a phone does not draw, and ranked by exact, highest first.
    const { mirror: results } = await bothTables(page, 'results');
    assert.deepEqual(results.header, ['measured by', 'run', 'model', 'width', 'exact', 'per-token', 'BLEU', 'AER', 'parameters', 'train s']);
    const exact = results.rows.map((r) => Number(r[4]));
    assert.ok(exact.every((v, i) => i === 0 || v <= exact[i - 1]), `exact is non-increasing: ${exact}`);
    assert.deepEqual(results.rows.map((r) => r[0]), (await state(page, 'results')).rows.map((r) => ({
      source: 'source (TensorFlow)', native: 'lookback sweep (native)', page: 'this page' })[r.origin]), 'origin_names()\'s labels');
    assert.deepEqual(problems, []);
    await context.close();
  });
}

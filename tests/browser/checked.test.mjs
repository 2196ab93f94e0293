// tests/browser/checked.test.mjs — figure "checked" (web/figures/checked.cpp) in headless
// Chromium: for each task it draws the shipped model's map of a held-out example; the outlines it
// drew are the example's links (the reversal's anti-diagonal exactly, the translation's one sure
// link a word); the example's scores agree with AER, peak and within-one recomputed here from the
// weights it shows; the table is assets/alignment-TASK.json's means; ck.task switches the task and
// a bad value is refused by name, changing nothing; a translation with a word outside the
// vocabulary is refused naming it and keeps the last map; a typed input is drawn unscored.
// Screenshots at 1280 and 390 px wide: build/screenshots/checked-TASK-{desktop,phone}.png.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canvasInk, clickWidget, openWatched, rect, screenshotPath, state, typeIntoField, until, useBrowser } from './helpers.mjs';

const tasks = ['dates', 'reversal', 'translation'];
const env = useBrowser({ folder: process.env.LOOKBACK_SITE || undefined });

// Opens the page at the checked figure, once its map and the sweep's table are in.
async function openChecked(query = '', viewport = { width: 1280, height: 900 }, options = {}) {
  const context = await env.browser.newContext({ viewport, ...options });
  const opened = await openWatched(context, env.url + query);
  await opened.page.locator('canvas[data-figure="checked"]').scrollIntoViewIfNeeded();
  await until('the checked map and table', async () => {
    const s = await state(opened.page, 'checked');
    return s.weights.length > 0 && s.table.length > 0 && (await rect(opened.page, 'checked', 'map')) !== null;
  }, 40000);
  return { context, ...opened };
}

// The first position of a row's largest weight (core's peak).
const peakOf = (row) => row.reduce((best, w, j) => (w > row[best] ? j : best), 0);

// AER, peak on a link and within one, from the weights and links the figure shows.
function scoresByHand(weights, links) {
  let steps = 0, hits = 0, near = 0, mass = 0, hardOnSure = 0, hardOnPossible = 0;
  const sure = links.filter((l) => l.sure).length;
  weights.forEach((row, t) => {
    const linked = links.filter((l) => l.output === t);
    if (!linked.length) return;
    steps++;
    const peak = peakOf(row);
    if (linked.some((l) => l.input === peak)) hits++, hardOnPossible++;
    if (linked.some((l) => l.input === peak && l.sure)) hardOnSure++;
    if (linked.some((l) => Math.abs(l.input - peak) <= 1)) near++;
    mass += linked.reduce((sum, l) => sum + row[l.input], 0);
  });
  return { steps, hits, near, mass, aer: 1 - (hardOnSure + hardOnPossible) / (steps + sure) };
}

for (const task of tasks) {
  test(`${task}: the map draws, its outlines are the example's links, its scores and table check`, async () => {
    const { context, page, problems } = await openChecked(`?ck.task=${task}&ck.ex=7`);
    const s = await state(page, 'checked');
    assert.equal(s.task, task);
    assert.equal(s.example, 7);
    assert.deepEqual(s.url_messages, []);
    assert.equal(s.forced, true);
    const ink = await canvasInk(page, 'checked');
    assert.ok(ink.differing > 5000 && ink.colours > 40, `the figure drew: ${JSON.stringify(ink)}`);

    // What was outlined is what the example's alignment says, link for link.
    const key = (o) => `${o.row ?? o.output}:${o.col ?? o.input}:${o.sure}`;
    assert.deepEqual(s.outlines.map(key).sort(), s.links.map(key).sort());
    assert.equal(s.weights.length, s.rows.length);
    for (const row of s.weights) {
      assert.equal(row.length, s.columns.length);
      assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-4, 'a row sums to 1');
    }
    const n = s.columns.length;
    if (task === 'reversal') {
      // docs/tasks.md: output t carries input n − 1 − t, sure, and nothing else.
      assert.equal(s.rows.join(''), [...s.columns].reverse().join(''));
      assert.deepEqual(s.outlines.map(key).sort(), s.rows.map((_, t) => `${t}:${n - 1 - t}:true`).sort());
    } else if (task === 'translation') {
      // One sure link a French word; a determiner's is an English determiner.
      s.rows.forEach((word, t) => {
        const sure = s.outlines.filter((o) => o.row === t && o.sure);
        assert.equal(sure.length, 1, `${word} has one sure link`);
        if (['le', 'la', 'un', 'une'].includes(word)) assert.ok(['the', 'a'].includes(s.columns[sure[0].col]), `${word} → ${s.columns[sure[0].col]}`);
      });
    } else {
      // The dashes copy nothing: no outline on their rows; every digit has one.
      s.rows.forEach((c, t) => assert.equal(s.outlines.some((o) => o.row === t), c !== '-', `row ${t} '${c}'`));
    }

    const hand = scoresByHand(s.weights, s.links);
    assert.equal(s.scores.steps, hand.steps);
    assert.equal(s.scores.peak_hits, hand.hits);
    assert.equal(s.scores.peak_near_hits, hand.near);
    assert.ok(Math.abs(s.scores.linked_mass - hand.mass) < 1e-4);
    assert.ok(Math.abs(s.scores.aer - hand.aer) < 1e-9, `AER ${s.scores.aer} against ${hand.aer}`);

    // The table: the served file's means, the diagonal guess last.
    const served = await page.evaluate((t) => fetch(`assets/alignment-${t}.json`).then((r) => r.json()), task);
    const want = served.summary.filter((m) => m.alignment).map((m) => ({
      model: m.model, aer: m.alignment.aer.mean, peak_hit_rate: m.alignment.peak_hit_rate.mean,
      peak_near_rate: m.alignment.peak_near_rate.mean, linked_mass: m.alignment.linked_mass.mean,
    }));
    const g = served.diagonal_guess;
    want.push({ model: 'diagonal guess', aer: g.aer, peak_hit_rate: g.peak_hit_rate, peak_near_rate: g.peak_near_rate, linked_mass: g.linked_mass });
    assert.deepEqual(s.table, want);
    assert.equal(s.seeds, served.seeds.length);
    const alt = await page.locator('[data-figure-alt="checked"]').innerHTML();
    assert.ok(alt.includes('diagonal guess') && alt.includes('<table>'), 'the text alternative has the tables');
    assert.deepEqual(problems, []);
    await context.close();
  });
}

test('ck.task switches the task; a bad value is refused by name and changes nothing', async () => {
  let { context, page, problems } = await openChecked('?ck.task=klingon&ck.ex=3');
  let s = await state(page, 'checked');
  assert.equal(s.task, 'dates', 'the default task');
  assert.equal(s.example, 3, 'the other key still applies');
  assert.equal(s.url_messages.length, 1, JSON.stringify(s.url_messages));
  assert.match(s.url_messages[0], /ck\.task='klingon'/);
  assert.match(s.url_messages[0], /dates, reversal or translation/);
  assert.match(s.url_messages[0], /default/);
  const dates = s.weights;
  assert.deepEqual(problems, []);
  await context.close();

  ({ context, page, problems } = await openChecked('?ck.ex=3'));
  assert.deepEqual((await state(page, 'checked')).weights, dates, 'the same map as with no ck.task at all');
  await clickWidget(page, 'checked', 'task-reversal');
  await until('the reversal map', async () => (await state(page, 'checked')).task === 'reversal', 10000);
  await page.waitForTimeout(600);  // the URL is written when the figure is idle
  assert.match(await page.evaluate(() => location.search), /ck\.task=reversal/);
  assert.deepEqual(problems, []);
  await context.close();
});

test('translation: a word outside the vocabulary is refused by name and keeps the map; a typed input is unscored', async () => {
  const { context, page, problems } = await openChecked('?ck.task=translation');
  const before = await state(page, 'checked');
  const type = (text) => typeIntoField(page, 'checked', 'input', text);
  await type('the cat sat on the sofa');
  await until('the refusal', async () => (await state(page, 'checked')).message !== '', 20000);
  let s = await state(page, 'checked');
  assert.match(s.message, /the word 'sofa' at position 6 is not in the translation task's vocabulary/, s.message);
  assert.equal(s.typed, false);
  assert.deepEqual(s.weights, before.weights, 'the last map stays');
  assert.deepEqual(s.outlines, before.outlines);

  await type('The dog sees a red car');
  await until('the typed map', async () => (await state(page, 'checked')).typed, 20000);
  s = await state(page, 'checked');
  assert.equal(s.message, '');
  assert.deepEqual(s.columns, ['the', 'dog', 'sees', 'a', 'red', 'car']);
  assert.equal(s.forced, false);
  assert.deepEqual(s.links, []);
  assert.deepEqual(s.outlines, [], 'nothing outlined');
  assert.equal(s.scores, null, 'nothing scored');
  assert.equal(s.rows.join(' '), s.written, 'the rows are what greedy decoding wrote');
  assert.equal(s.weights.length, s.rows.length);
  await page.waitForTimeout(600);
  assert.match(await page.evaluate(() => location.search), /ck\.input=the%20dog%20sees%20a%20red%20car/);
  assert.deepEqual(problems, []);
  await context.close();

  // The same refusal from a link: named, and the held-out example shown instead.
  const linked = await openChecked('?ck.task=translation&ck.input=the+cat+sat+on+the+sofa');
  s = await state(linked.page, 'checked');
  assert.ok(s.url_messages.some((m) => m.includes('ck.input=') && m.includes("'sofa'")), JSON.stringify(s.url_messages));
  assert.equal(s.typed, false);
  assert.equal(s.task, 'translation');
  await linked.context.close();
});

const sizes = {
  desktop: { viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 },
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
};
for (const [size, options] of Object.entries(sizes)) {
  test(`screenshots on a ${size}, every task`, async () => {
    for (const task of tasks) {
      const { context, page, problems } = await openChecked(`?ck.task=${task}&ck.ex=2`, options.viewport, options);
      const canvas = page.locator('canvas[data-figure="checked"]');
      await page.waitForTimeout(400);
      const ink = await canvasInk(page, 'checked');
      assert.ok(ink.differing > 5000 && ink.colours > 40, `${task} drew on a ${size}: ${JSON.stringify(ink)}`);
      const box = await canvas.boundingBox();
      assert.ok(box.x >= 0 && box.x + box.width <= options.viewport.width + 1, `the canvas fits the ${size}'s width`);
      const map = await rect(page, 'checked', 'map');
      assert.ok(map.x >= box.x - 1 && map.x + map.width <= box.x + box.width + 1, `the map fits in the canvas: ${JSON.stringify(map)}`);
      await canvas.evaluate((element) => element.scrollIntoView({ block: 'start' }));
      const top = await canvas.boundingBox();
      await page.screenshot({ path: screenshotPath(`checked-${task}-${size}.png`),
                              clip: { x: top.x, y: top.y, width: top.width, height: Math.min(top.height, options.viewport.height - top.y) } });
      assert.deepEqual(problems, []);
      await context.close();
    }
  });
}

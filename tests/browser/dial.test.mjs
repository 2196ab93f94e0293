// tests/browser/dial.test.mjs — the date task's difficulty dial in the training figure, in headless
// Chromium: tr.formats and tr.order pick one format with the year read first; the figure's state
// echoes them, each worker is given them in its config, and after an epoch the held-out split the
// workers evaluated has one group (one format), not six; the results table lists the runs with
// their setting in their label. A bad value, and a dial setting given for another task, are
// refused by name and leave the default.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clickWidget, openWatched, rect, state, until, useBrowser } from './helpers.mjs';

const env = useBrowser({ folder: process.env.LOOKBACK_SITE || undefined, ownContexts: true });

async function openTraining(context, query) {
  const { page, problems } = await openWatched(context, env.url + query);
  await page.locator('canvas[data-figure="training"]').scrollIntoViewIfNeeded();
  await until('the training figure', async () => (await rect(page, 'training', 'train')) !== null, 20000);
  return { page, problems };
}

test('the dial: one format, the year read first, trained in the workers', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const { page, problems } = await openTraining(context, '?tr.formats=0&tr.order=ymd&tr.width=16&tr.epochs=1');
  const before = await state(page, 'training');
  assert.deepEqual(before.url_messages, []);
  assert.equal(before.task, 'dates');
  assert.equal(before.formats, '0');
  assert.equal(before.order, 'ymd');
  assert.ok(await rect(page, 'training', 'formats'), 'the formats widget is drawn');
  assert.ok(await rect(page, 'training', 'order'), 'the order widget is drawn');
  for (const config of before.worker_configs) {
    assert.equal(config.task, 'dates');
    assert.equal(config.formats, '0');
    assert.equal(config.field_order, 'ymd');
  }

  await clickWidget(page, 'training', 'train');
  await until('one epoch of each run', async () => (await state(page, 'training')).runs.every((r) => r.done), 240000);
  const trained = await state(page, 'training');
  for (const run of trained.runs) {
    assert.equal(run.epochs.length, 1);
    assert.ok(run.epochs[0].exact >= 0 && run.epochs[0].exact <= 1, `${run.model} exact ${run.epochs[0].exact}`);
  }
  assert.deepEqual(trained.held_out_groups, [1200], 'one format: every held-out string in one group');
  console.log(`# format 0 in ymd, width 16, 1 epoch in the page: plain exact ${trained.runs[0].epochs[0].exact.toFixed(4)}, ` +
              `attention exact ${trained.runs[1].epochs[0].exact.toFixed(4)}`);
  // The results table (the dates' rows, as it opens) lists both runs, each labelled with its setting.
  const results = await state(page, 'results');
  assert.equal(results.task, 'dates');
  const ours = results.rows.filter((r) => r.origin === 'page' && r.run.startsWith('training'));
  assert.deepEqual(ours.map((r) => r.run), ['training (1/1 ep.) \u00b7 formats 0 \u00b7 order ymd',
                                            'training (1/1 ep.) \u00b7 formats 0 \u00b7 order ymd']);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the dial: a bad value, or a setting for another task, is refused by name and keeps the default', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const { page } = await openTraining(context, '?tr.formats=0,7&tr.order=ddy');
  const s = await state(page, 'training');
  assert.equal(s.url_messages.length, 2, JSON.stringify(s.url_messages));
  assert.match(s.url_messages[0], /tr\.formats='0,7'/);
  assert.match(s.url_messages[0], /format numbers from 0 to 5/);
  assert.match(s.url_messages[1], /tr\.order='ddy'/);
  assert.match(s.url_messages[1], /dmy, dym, mdy, myd, ydm or ymd/);
  assert.equal(s.formats, '0,1,2,3,4,5');
  assert.equal(s.order, 'dmy');

  const other = await openTraining(context, '?tr.task=reversal&tr.order=ymd');
  const r = await state(other.page, 'training');
  assert.equal(r.task, 'reversal');
  assert.equal(r.url_messages.length, 1, JSON.stringify(r.url_messages));
  assert.match(r.url_messages[0], /tr\.order='ymd'/);
  assert.match(r.url_messages[0], /dates task only/);
  for (const config of r.worker_configs) assert.equal(config.field_order, undefined, 'no dial for the reversal');
  await context.close();
});

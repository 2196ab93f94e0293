// tests/browser/workers.test.mjs — training in Web Workers (web/worker/): a worker gives exactly
// the losses the same wasm gives under node; the page's main thread never trains while workers
// can; without Worker the page falls back to main-thread slices and says so; a worker that fails
// ends its run with a message and the page goes on; every URL key refuses a bad value by name.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';
import { clickWidget, openWatched, rect, site, state, until, useBrowser } from './helpers.mjs';

const env = useBrowser({ folder: process.env.LOOKBACK_SITE || undefined });
const folder = process.env.LOOKBACK_SITE || site;

const config = { model: 'attention', scorer: 'additive', width: 16, epochs: 1, seed: 3 };

// The first 20 losses of `config` from the training module under node.
async function lossesUnderNode() {
  const createLookbackTrainer = createRequire(import.meta.url)(path.join(folder, 'lookback_trainer.js'));
  const module = await createLookbackTrainer({ wasmBinary: fs.readFileSync(path.join(folder, 'lookback_trainer.wasm')) });
  const id = module.ccall('lbt_create', 'number', ['string'], [JSON.stringify(config)]);
  assert.ok(id >= 0, module.UTF8ToString(module._lbt_message()));
  assert.equal(module._lbt_work(id, 1e9, 20), 2, 'stops before step 20');
  return JSON.parse(module.UTF8ToString(module._lbt_report(id))).losses;
}

async function openAt(figure, widget, query = '', init) {
  const context = await env.browser.newContext({ viewport: { width: 1000, height: 900 } });
  if (init) await context.addInitScript(init);
  const opened = await openWatched(context, env.url + query);
  await opened.page.locator(`canvas[data-figure="${figure}"]`).scrollIntoViewIfNeeded();
  await until(`${figure} to draw ${widget}`, async () => (await rect(opened.page, figure, widget)) !== null, 20000);
  return { context, ...opened };
}

test('a run in a Web Worker gives exactly the losses of the same wasm under node', async () => {
  const expected = await lossesUnderNode();
  assert.equal(expected.length, 20);
  assert.ok(expected[19] < expected[0], `the loss falls over 20 steps: ${expected[0]} → ${expected[19]}`);
  const { context, page, problems } = await openAt('training', 'train');
  const inWorker = await page.evaluate((c) => new Promise((resolve, reject) => {
    const worker = new Worker('training_worker.js');
    const losses = [];
    worker.onerror = (event) => reject(new Error(event.message));
    worker.onmessage = ({ data }) => {
      if (data.type === 'ready') {
        worker.postMessage({ type: 'create', run: 1, config: c });
        worker.postMessage({ type: 'play', run: 1, stopAtStep: 20 });
      } else if (data.type === 'report') {
        losses.push(...JSON.parse(data.report).losses);
      } else if (data.type === 'state') {
        worker.terminate();
        resolve({ state: data.state, losses });
      }
    };
  }), config);
  assert.equal(inWorker.state, 'paused');
  assert.deepEqual(inWorker.losses, expected, 'bit for bit, step by step');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the page trains in workers: Step is one batch each, and the main thread trains nothing', async () => {
  const { context, page, problems } = await openAt('training', 'step', '?tr.width=16');
  await clickWidget(page, 'training', 'step');
  await until('one step each', async () => (await state(page, 'training')).runs.every((r) => r.steps === 1), 20000);
  await page.waitForTimeout(500);
  const after = await state(page, 'training');
  assert.deepEqual(after.runs.map((r) => r.steps), [1, 1], 'Step trains one batch, then pauses');
  assert.equal(after.running, false);
  await clickWidget(page, 'training', 'train');
  await until('training in a worker', async () => (await state(page, 'training')).runs[1].steps >= 5, 20000);
  const training = await page.evaluate(() => window.lookback.training());
  assert.equal(training.mode, 'workers');
  assert.ok(training.workers >= 1 && training.workers <= training.size, JSON.stringify(training));
  assert.equal(training.mainThreadSlices, 0, 'no training slice ran on the page\'s thread');
  assert.equal((await state(page, 'training')).training_note, '');
  assert.deepEqual(problems, []);
  await context.close();
});

test('without Web Workers the page trains on its main thread and says so', async () => {
  const { context, page, problems } = await openAt('training', 'train', '?tr.width=8', () => { delete window.Worker; });
  await clickWidget(page, 'training', 'train');
  await until('training on the main thread', async () => (await state(page, 'training')).runs[1].steps >= 3, 30000);
  const training = await page.evaluate(() => window.lookback.training());
  assert.equal(training.mode, 'main thread');
  assert.ok(training.mainThreadSlices > 0);
  const note = (await state(page, 'training')).training_note;
  assert.match(note, /main thread/);
  assert.match(note, /cannot start a Web Worker/);
  // The shipped models were checked there too: the sweep figure has their numbers.
  await until('the shipped models checked', async () => (await state(page, 'sweep')).shipped.attention !== undefined, 60000);
  assert.deepEqual(problems, []);
  await context.close();
});

test('a worker that fails ends its run with a message, and the page goes on', async () => {
  const { context, page, problems } = await openAt('training', 'train', '?tr.width=8');
  await page.evaluate(() => window.lookback.failNextRun('throw'));
  await clickWidget(page, 'training', 'reset');  // new runs: the first one's worker will fail
  await clickWidget(page, 'training', 'train');
  await until('the run to fail', async () => (await state(page, 'training')).runs[0].failed !== null, 20000);
  const failed = await state(page, 'training');
  assert.match(failed.runs[0].failed, /the training worker stopped: this run was made to fail by a test/);
  assert.equal(failed.running, false);
  // Every other figure still answers, and a new pair trains in a new worker.
  for (const name of await page.evaluate(() => window.lookback.figures())) {
    assert.ok(!('error' in (await state(page, name))), `${name} still answers`);
  }
  await clickWidget(page, 'training', 'reset');
  await clickWidget(page, 'training', 'train');
  await until('the new pair to train', async () => (await state(page, 'training')).runs.every((r) => r.steps >= 2), 20000);
  assert.deepEqual(problems, []);
  await context.close();
});

test('every URL key refuses a bad value by name and keeps its default', async () => {
  const probe = await openAt('training', 'train');
  const keys = await probe.page.evaluate(() => window.lookback.urlKeys());
  await probe.context.close();
  const all = Object.values(keys).flat();
  assert.ok(all.length >= 16, `keys: ${all.join(' ')}`);
  const query = '?' + all.map((k) => `${encodeURIComponent(k)}=%C3%28bad%1B`).join('&');
  const { context, page } = await openAt('training', 'train', query);
  for (const [figure, figureKeys] of Object.entries(keys)) {
    await page.locator(`canvas[data-figure="${figure}"]`).scrollIntoViewIfNeeded();
    const messages = (await state(page, figure)).url_messages;
    for (const key of figureKeys) {
      const message = messages.find((m) => m.includes(`${key}=`));
      assert.ok(message, `${figure}: a message names ${key}: ${JSON.stringify(messages)}`);
      assert.match(message, /default/);
      assert.ok(!/[\u0000-\u001f\ufffd]/.test(message), `the message quotes safely: ${message}`);
    }
  }
  const training = await state(page, 'training');
  assert.deepEqual([training.width, training.seed, training.epochs, training.scorer], [64, 1, 12, 'additive']);
  await context.close();
});

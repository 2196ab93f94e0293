// tests/browser/workers.test.mjs — training in Web Workers (web/worker/): a worker gives exactly
// the losses the same wasm gives under node; the page's main thread never trains while workers
// can; without Worker the page falls back to main-thread slices and says so; a worker that fails
// ends its run with a message and the page goes on; a reader's task of 2 MiB is posted to a
// worker once, not with every run, and again to a worker started after one failed; every URL key
// refuses a bad value by name.
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
  const module = await trainerUnderNode();
  const id = module.ccall('lbt_create', 'number', ['string'], [JSON.stringify(config)]);
  assert.ok(id >= 0, module.UTF8ToString(module._lbt_message()));
  assert.equal(module._lbt_work(id, 1e9, 20), 2, 'stops before step 20');
  return JSON.parse(module.UTF8ToString(module._lbt_report(id))).losses;
}

// The training module under node, as a worker runs it.
async function trainerUnderNode() {
  const createLookbackTrainer = createRequire(import.meta.url)(path.join(folder, 'lookback_trainer.js'));
  return createLookbackTrainer({ wasmBinary: fs.readFileSync(path.join(folder, 'lookback_trainer.wasm')) });
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
    worker.postMessage({ type: 'start', module: null });  // it compiles its own module
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

// A wasm memory never shrinks: what a worker holds is the peak of everything it ever did.
// Two epochs: the second is where training's activations grew again beside the decoding's.
test('a worker training the attention model at width 64 holds at most 32 MiB, its held-out decoding included', async () => {
  const module = await trainerUnderNode();
  const config = { model: 'attention', scorer: 'additive', width: 64, epochs: 3, seed: 1 };
  const id = module.ccall('lbt_create', 'number', ['string'], [JSON.stringify(config)]);
  assert.equal(module._lbt_work(id, 1e9, 190), 2, 'stops before step 190, past two epochs (94 steps each) and their held-out decoding');
  const report = JSON.parse(module.UTF8ToString(module._lbt_report(id)));
  assert.equal(report.epochs.length, 2, 'two epochs were evaluated');
  const mib = module.HEAP8.length / 2 ** 20;
  console.log(`# a worker's memory after two epochs of attention at width 64 and their evaluations: ${mib.toFixed(1)} MiB`);
  assert.ok(mib <= 32, `${mib.toFixed(1)} MiB`);
});

test('the page trains in workers: Step is one batch each, and the main thread trains nothing', async () => {
  const { context, page, problems } = await openAt('training', 'step', '?tr.width=16&tr.lr=0.003');
  assert.equal((await state(page, 'training')).learning_rate, 0.003, 'the URL sets the learning rate');
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

// Counts what the page posts to its workers: each message's type, the reader's task it names, and
// its size as JSON text in UTF-8 bytes.
function countPosts() {
  window.postedToWorkers = [];
  const post = Worker.prototype.postMessage;
  const workers = new WeakMap();  // each worker's number, in the order first posted to
  let started = 0;
  Worker.prototype.postMessage = function (message, transfer) {
    if (!workers.has(this)) workers.set(this, started++);
    if (message && typeof message.type === 'string') {
      window.postedToWorkers.push({ type: message.type, task: message.name ?? message.config?.task ?? null, worker: workers.get(this),
                                    bytes: new TextEncoder().encode(JSON.stringify(message)).length });
    }
    return post.call(this, message, transfer);
  };
}

// 49,000 distinct strings of 20 letters a-z, each with its reverse: 42 bytes a line, 2,058,000
// bytes in all, under the 2 MiB (2,097,152 bytes) a reader may paste.
function largePairs() {
  let state = 12345;
  const seen = new Set();
  const lines = [];
  while (lines.length < 49000) {
    let input = '';
    for (let k = 0; k < 20; k++) {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      input += String.fromCharCode(97 + (state >>> 16) % 26);
    }
    if (seen.has(input)) continue;
    seen.add(input);
    lines.push(`${input}\t${[...input].reverse().join('')}`);
  }
  return lines.join('\n') + '\n';
}

test('a reader\'s 2 MiB task is posted to a worker once, not with every run, and again to a worker started after one failed', async () => {
  const text = largePairs();
  assert.equal(text.length, 49000 * 42);
  const { context, page, problems } = await openAt('training', 'train', '?tr.width=8&tr.epochs=1', countPosts);
  await page.evaluate((t) => { document.getElementById('own-pairs-text').value = t; }, text);
  await page.focus('#own-pairs-use');
  await page.keyboard.press('Space');
  await until('the pairs used', async () => (await page.textContent('#own-pairs-status')).includes('49,000 pairs read'), 60000);
  assert.equal((await state(page, 'training')).task, 'your-pairs');
  const posts = () => page.evaluate(() => window.postedToWorkers.filter((m) => m.task === 'your-pairs'));
  const ofType = (list, type) => list.filter((m) => m.type === type);
  // The pair is built on the task when it is used: two runs, and the source once to each worker
  // they went to (two on this 2-core machine).
  await until('the pair created', async () => ofType(await posts(), 'create').length === 2, 20000);
  const first = await posts();
  const workers = (await page.evaluate(() => window.lookback.training())).workers;
  assert.ok(ofType(first, 'task').length >= 1 && ofType(first, 'task').length <= workers, JSON.stringify(first));
  const source = ofType(first, 'task')[0].bytes;
  assert.ok(source > text.length, `the source holds the text: ${source} bytes`);
  const creates = ofType(first, 'create').reduce((sum, m) => sum + m.bytes, 0);
  assert.ok(creates < 1000, `a run's message is its config alone: ${creates} bytes for two`);
  const sent = first.reduce((sum, m) => sum + m.bytes, 0);
  // As it was when every run carried the source: each create with it (and its key) besides its config.
  const escaped = source - '{"type":"task","name":"your-pairs","source":}'.length;
  const everyRun = creates + 2 * (',"pairs":'.length + escaped);
  console.log(`# one run pair on a ${text.length}-byte task: ${sent} bytes posted to workers (the source ${source} bytes, ` +
              `${ofType(first, 'task').length} time(s); the creates ${creates}); with the source in every run's message ${everyRun}`);

  // Train, then a new pair on the same task: no source again.
  await clickWidget(page, 'training', 'train');
  await until('a step each', async () => (await state(page, 'training')).runs.every((r) => r.steps >= 1), 60000);
  await clickWidget(page, 'training', 'reset');
  await until('the second pair created', async () => ofType(await posts(), 'create').length === 4, 20000);
  // Each worker has had the source once at most, whichever the second pair went to.
  const sentTo = ofType(await posts(), 'task').map((m) => m.worker);
  assert.equal(new Set(sentTo).size, sentTo.length, `no worker sent the source twice: ${JSON.stringify(sentTo)}`);

  // The worker fails; the next pair goes to a new one, which is sent the source, and trains.
  await page.evaluate(() => window.lookback.failNextRun('throw'));
  await clickWidget(page, 'training', 'reset');
  await clickWidget(page, 'training', 'train');
  await until('the run to fail', async () => (await state(page, 'training')).runs[0].failed !== null, 60000);
  const before = ofType(await posts(), 'task').length;
  await clickWidget(page, 'training', 'reset');
  await clickWidget(page, 'training', 'train');
  await until('the new pair to train', async () => (await state(page, 'training')).runs.every((r) => r.steps >= 1), 60000);
  const after = await posts();
  assert.ok(ofType(after, 'task').length > before, 'the new worker was sent the source');
  assert.equal(ofType(after, 'task').at(-1).bytes, source, 'the same source');
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

test('on two cores the pair trains a model per worker, and the training module is fetched once', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1000, height: 900 } });
  const fetched = [];
  // The page's and its workers' requests (the service worker caches the site for itself).
  context.on('request', (request) => {
    if (request.url().endsWith('/lookback_trainer.wasm') && !request.serviceWorker()) fetched.push(request.url());
  });
  const { page, problems } = await openWatched(context, `${env.url}?tr.width=8`);
  await page.locator('canvas[data-figure="training"]').scrollIntoViewIfNeeded();
  await until('the training figure', async () => (await rect(page, 'training', 'train')) !== null, 20000);
  await clickWidget(page, 'training', 'train');
  await until('both models training', async () => (await state(page, 'training')).runs.every((r) => r.steps >= 2), 30000);
  const training = await page.evaluate(() => window.lookback.training());
  if (training.reportedCores === 2) {
    assert.equal(training.size, 2, 'two workers on two cores');
    assert.deepEqual(training.runsPerWorker, [1, 1], `a model on each worker: ${JSON.stringify(training)}`);
  }
  assert.ok(training.workersReady >= 1);
  assert.deepEqual(fetched.length, 1, `the module fetched once, by the page, for ${training.workersReady} worker(s): ${fetched.join(', ')}`);
  assert.deepEqual(problems, []);
  await context.close();
});

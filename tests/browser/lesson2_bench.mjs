// tests/browser/lesson2_bench.mjs — how fast the page trains and starts. A program, not a test:
//
//   node tests/browser/lesson2_bench.mjs [--site build/site] [--width 64] [--seconds 15]
//                                        [--rounds 3] [--loads 5] [--no-sweep] [--no-pytorch]
//   node tests/browser/lesson2_bench.mjs --phone [--throttle 4] [--loads 5]
//   node tests/browser/lesson2_bench.mjs --sweep-memory [--epochs 2]
//   node tests/browser/lesson2_bench.mjs --pair [--width 64] [--epochs 12] [--repeat 1] [--cli build/native/lookback]
//
// 1. One run in a Web Worker against the same training module (lookback_trainer.wasm) under
//    node, side by side: examples/s of the worker's busy time and of the wall clock. Each side
//    trains --seconds in all, in --rounds parts that alternate with the other side's, so that a
//    change in the machine's load between the two does not decide their ratio.
// 2. Frames per second of the page while "Run all eight" trains on every worker, and the wall
//    time of the whole table (4 widths × 2 models × 12 epochs), with each cell's cost; from those
//    costs, what 4 and 8 cores would take (largest first, as the page schedules them).
// 3. PyTorch's time for its attention-64 cell: 12 epochs of 6,000 strings at the examples/s of
//    tests/bench/pytorch_reference.py (its training alone, one thread, CPU time).
// 4. Start-up: navigation to the first visible figure's first frame, median of --loads cold loads
//    (each a new browser context, opened at the article's first figure, #bottleneck-figure), two
//    ways in turn: navigating at once from the new context's window, whose own start-up shares
//    the two cores with the page's, and from a tab that has drawn its blank page, as in a
//    browser already open.
// 5. With --phone, a slow phone beside the desktop, in one run: a 390 × 844 viewport with
//    Chromium's CPU throttling at 4× (--throttle), against 1280 × 900 unthrottled: the first
//    visible figure; frames/s and the longest main-thread task while the training figure trains
//    both models, and while "Run all eight" trains on every worker; the input delay of clicks on
//    the alignment map while training runs; with every worker training, the memory of the
//    browser's processes (proportional set size, so shared pages count once) and the page's own
//    (its JS heaps and wasm memories); examples/s per worker.
// 7. With --pair, the lesson's experiment as a reader runs it: Figure 3's pair (plain and attention,
//    --width, --epochs, the date task) from Train pressed on the figure's mirror by keyboard to
//    both runs' last epoch with its held-out results, wall clock, with the figure's frame rate and
//    when each epoch arrived; beside it, in the same run, the native CLI training the same two runs
//    one after the other (`lookback train`, which evaluates each epoch too) and the page's training
//    module under node doing the same.
// 6. With --sweep-memory, the wasm memory of one training module (under node) running the eight
//    cells of "Run all eight" to the end one after another, as one worker does, after each cell.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { clickWidget, framesPerSecond, launch, launchServer, openWatched, rect, root, serve, state, until } from './helpers.mjs';

const option = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const flag = (name) => process.argv.includes(`--${name}`);
const site = path.resolve(option('site', path.join(root, 'build/site')));
const width = Number(option('width', 64));
const seconds = Number(option('seconds', 15));
const loads = Number(option('loads', 5));
const rounds = Number(option('rounds', 3));
const config = { model: 'attention', scorer: 'additive', width, epochs: 100, seed: 1 };
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const print = (label, value) => console.log(`${label.padEnd(58)} ${value}`);

// --- 1. node: the same module, the same run ---------------------------------------------------
async function nodeExamplesPerSecond(seconds) {
  const create = createRequire(import.meta.url)(path.join(site, 'lookback_trainer.js'));
  const module = await create({ wasmBinary: fs.readFileSync(path.join(site, 'lookback_trainer.wasm')) });
  const id = module.ccall('lbt_create', 'number', ['string'], [JSON.stringify(config)]);
  const start = performance.now();
  while (performance.now() - start < seconds * 1000) module._lbt_work(id, 200, -1);
  const report = JSON.parse(module.UTF8ToString(module._lbt_report(id)));
  return { busy: report.examples / report.train_seconds, wall: report.examples / ((performance.now() - start) / 1000) };
}

async function workerExamplesPerSecond(page, seconds) {
  return page.evaluate(([c, ms]) => new Promise((resolve, reject) => {
    const worker = new Worker('training_worker.js');
    worker.postMessage({ type: 'start', module: null });  // it compiles its own module
    let last = null, start = 0;
    worker.onerror = (event) => reject(new Error(event.message));
    worker.onmessage = ({ data }) => {
      if (data.type === 'ready') {
        worker.postMessage({ type: 'create', run: 1, config: c });
        worker.postMessage({ type: 'play', run: 1 });
        start = performance.now();
        setTimeout(() => worker.postMessage({ type: 'pause', run: 1 }), ms);
      } else if (data.type === 'report') {
        last = JSON.parse(data.report);
      } else if (data.type === 'state') {
        const wall = (performance.now() - start) / 1000;
        worker.terminate();
        resolve({ busy: last.examples / last.train_seconds, wall: last.examples / wall });
      }
    };
  }), [config, seconds * 1000]);
}

// --- 2. the sweep ---------------------------------------------------------------------------------
// Largest first onto the least-loaded of `cores` workers: the time the last one finishes.
function makespan(costs, cores) {
  const loadsOf = new Array(cores).fill(0);
  for (const cost of [...costs].sort((a, b) => b - a)) {
    loadsOf.sort((a, b) => a - b);
    loadsOf[0] += cost;
  }
  return Math.max(...loadsOf);
}

async function sweep(page) {
  await page.locator('canvas[data-figure="sweep"]').scrollIntoViewIfNeeded();
  await until('the sweep figure', async () => (await rect(page, 'sweep', 'run-all')) !== null, 30000);
  await clickWidget(page, 'sweep', 'run-all');
  await until('the sweep to start', async () => (await state(page, 'sweep')).training.length > 0, 30000);
  const fps = await framesPerSecond(page, 10000);
  await until('the sweep to finish', async () => !(await state(page, 'sweep')).running, 30 * 60 * 1000);
  const s = await state(page, 'sweep');
  const cells = (await state(page, 'results')).rows?.filter((r) => r.origin === 'page' && r.run.startsWith('sweep')) ?? [];
  return { fps, wall: s.wall_seconds, workers: s.workers, cells };
}

// --- 3. PyTorch -----------------------------------------------------------------------------------
function pytorchCellSeconds() {
  const script = path.join(root, 'tests/bench/pytorch_reference.py');
  const result = spawnSync('/usr/bin/python3', [script, '--json', '--width', String(width), '--seconds', String(seconds)], { encoding: 'utf8' });
  if (result.status !== 0) return null;
  const measured = JSON.parse(result.stdout);
  const rate = measured.train_examples_per_second;
  return { rate, seconds: 12 * 6000 / rate, version: measured.torch_version };
}

// --- 4. start-up ------------------------------------------------------------------------------------
// Watched by the page from its first script on: when a figure in the viewport has first drawn and
// its canvas holds what it drew (resizing a canvas clears it: a frame drawn before a resize is
// never seen), two ways:
// - painted: the end of the first frame whose paint holds it. A ResizeObserver on a 1 px element
//   that changes each frame is called in every frame after layout, before paint; the frame's end
//   is its long-animation-frame entry's, if it was one (> 50 ms), else that call's time.
// - next frame: the next animation frame after it was drawn (the measure before December 2026).
//   It counts whatever the page does between the two frames.
// The page reports on its console: polling from the test (waitForFunction) would put Playwright's
// own script into the page at the load event, ~70 ms of its main thread in mid start-up.
function watchFirstVisibleFigure() {
  const probe = document.createElement('canvas');
  probe.width = probe.height = 32;
  const holdsDrawing = (canvas) => {  // not one flat colour, as a cleared canvas is
    const g = probe.getContext('2d', { willReadFrequently: true });
    g.drawImage(canvas, 0, 0, 32, 32);
    const p = g.getImageData(0, 0, 32, 32).data;
    for (let i = 4; i < p.length; i += 4) if (p[i] !== p[0] || p[i + 1] !== p[1] || p[i + 2] !== p[2]) return true;
    return false;
  };
  const figureShown = () => {
    const lb = window.lookback;
    return !!lb && lb.figures().some((name) => {
      if (lb.frames(name) === 0) return false;
      const canvas = document.querySelector(`canvas[data-figure="${name}"]`);
      const box = canvas.getBoundingClientRect();
      return box.bottom > 0 && box.top < innerHeight && holdsDrawing(canvas);
    });
  };
  const longFrames = [];
  new PerformanceObserver((list) => longFrames.push(...list.getEntries())).observe({ type: 'long-animation-frame', buffered: true });
  const seen = {};
  const afterLayout = new ResizeObserver(() => { if (!seen.layout && figureShown()) seen.layout = performance.now(); });
  let tick = null;
  const look = () => {
    if (!tick && document.body) {
      tick = document.createElement('div');
      tick.style.cssText = 'position: fixed; top: 0; left: 0; width: 1px; height: 1px; pointer-events: none';
      document.body.append(tick);
      afterLayout.observe(tick);
    }
    if (tick) tick.style.width = tick.style.width === '1px' ? '2px' : '1px';
    if (!seen.nextFrame && figureShown()) seen.nextFrame = performance.now();
    if (!(seen.nextFrame && seen.layout)) return requestAnimationFrame(look);
    setTimeout(() => {  // long-animation-frame entries arrive a little after their frame
      const frame = longFrames.find((f) => f.startTime <= seen.layout && seen.layout <= f.startTime + f.duration);
      const painted = frame ? frame.startTime + frame.duration : seen.layout;
      console.log(`first visible figure ${JSON.stringify({ painted, nextFrame: seen.nextFrame })}`);
    }, 300);
  };
  requestAnimationFrame(look);
}

async function firstFigureTimes(browser, url, { openTab, viewport = { width: 1280, height: 900 }, throttle = 1 }) {
  const context = await browser.newContext({ viewport });
  await context.addInitScript(watchFirstVisibleFigure);
  const page = await context.newPage();
  if (throttle > 1) await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: throttle });
  if (openTab) {  // the blank page has drawn twice, and a little more
    await page.evaluate(() => new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn))));
    await page.waitForTimeout(500);
  }
  const reported = page.waitForEvent('console', { predicate: (m) => m.text().startsWith('first visible figure '), timeout: 30000 });
  await page.goto(url, { waitUntil: 'commit' });
  const value = JSON.parse((await reported).text().slice('first visible figure '.length));
  await context.close();
  return value;
}

// --- 5. a slow phone --------------------------------------------------------------------------------
// Every long task (≥ 50 ms) of the page's main thread, and each pointerdown's input delay: from the
// event's hardware time stamp to its first handler, measured by a capturing listener.
function watchMainThread() {
  window.benchLongTasks = [];
  new PerformanceObserver((list) => window.benchLongTasks.push(...list.getEntries().map((e) => e.duration)))
    .observe({ type: 'longtask', buffered: true });
  window.benchInputDelays = [];
  addEventListener('pointerdown', (e) => window.benchInputDelays.push(performance.now() - e.timeStamp), { capture: true });
}
const longestTaskSince = async (page, from) => page.evaluate((n) => Math.max(0, ...window.benchLongTasks.slice(n)), from);
const longTaskCount = (page) => page.evaluate(() => window.benchLongTasks.length);

// The proportional set size of a process and all its descendants, in MB (/proc, Linux): in all,
// and of the renderers alone (the page's process, which holds its workers too; the rest are the
// browser's own, the GPU process among them, here a software renderer that no phone runs).
function treeMegabytes(pid) {
  const children = new Map();
  for (const entry of fs.readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const parent = Number(fs.readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
      children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
    } catch { /* gone */ }
  }
  const kb = { all: 0, renderer: 0 };
  const visit = (p) => {
    try {
      const pss = Number(fs.readFileSync(`/proc/${p}/smaps_rollup`, 'utf8').match(/^Pss:\s+(\d+)/m)[1]);
      kb.all += pss;
      if (fs.readFileSync(`/proc/${p}/cmdline`, 'utf8').includes('--type=renderer')) kb.renderer += pss;
    } catch { /* gone */ }
    for (const c of children.get(p) ?? []) visit(c);
  };
  visit(pid);
  return { all: kb.all / 1024, renderer: kb.renderer / 1024 };
}

// The goal's measure of the page's memory, in MB: the used JS heap of the page, of each of its
// workers (training and service worker; Runtime.getHeapUsage through CDP, attached to each) and
// the wasm memories (the page's module and each training worker's, as the page reports them).
// The WebGL contexts' buffers live in the GPU process and are not in it.
async function pageMegabytes(context, page) {
  const session = await context.newCDPSession(page);
  const targets = [];
  const waiting = new Map();
  let next = 1;
  session.on('Target.attachedToTarget', ({ sessionId, targetInfo }) => targets.push({ sessionId, type: targetInfo.type }));
  session.on('Target.receivedMessageFromTarget', ({ message }) => {
    const reply = JSON.parse(message);
    waiting.get(reply.id)?.(reply.result);
    waiting.delete(reply.id);
  });
  await session.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  await until('the workers to be attached', () => targets.some((t) => t.type === 'worker'), 10000);
  const heapOf = (sessionId) => new Promise((resolve) => {
    const id = next++;
    waiting.set(id, resolve);
    session.send('Target.sendMessageToTarget', { sessionId, message: JSON.stringify({ id, method: 'Runtime.getHeapUsage' }) });
  });
  const heaps = { page: (await session.send('Runtime.getHeapUsage')).usedSize };
  for (const t of targets) heaps[t.type] = (heaps[t.type] ?? 0) + (await heapOf(t.sessionId)).usedSize;
  const placed = await page.evaluate(() => window.lookback.training());
  await session.detach();
  const mb = (bytes) => bytes / 2 ** 20;
  const wasm = { page: mb(placed.pageWasmBytes), workers: mb(placed.workerWasmBytes.reduce((a, b) => a + b, 0)) };
  const js = Object.fromEntries(Object.entries(heaps).map(([k, v]) => [k, mb(v)]));
  const total = wasm.page + wasm.workers + Object.values(js).reduce((a, b) => a + b, 0);
  return { js, wasm, total, workers: placed.workerWasmBytes.length };
}

async function deviceRun(browser, pid, url, { viewport, throttle }) {
  const context = await browser.newContext({ viewport });
  await context.addInitScript(watchMainThread);
  const { page } = await openWatched(context, `${url}?tr.width=64&tr.epochs=30`);
  if (throttle > 1) await (await context.newCDPSession(page)).send('Emulation.setCPUThrottlingRate', { rate: throttle });
  const out = {};
  // Training both models in the training figure.
  await page.locator('canvas[data-figure="training"]').scrollIntoViewIfNeeded();
  await until('the training figure', async () => (await rect(page, 'training', 'train')) !== null, 60000);
  await until('the shipped models to be evaluated', async () => (await state(page, 'sweep')).shipped.attention !== undefined, 120000);
  await clickWidget(page, 'training', 'train');
  await until('training to start', async () => (await state(page, 'training')).runs[1].steps >= 2, 60000);
  let tasks = await longTaskCount(page);
  out.trainingFps = await framesPerSecond(page, 8000);
  out.trainingLongest = await longestTaskSince(page, tasks);
  const training = await state(page, 'training');
  out.perWorker = training.runs.map((r) => r.busy_examples_per_second);
  out.workers = training.workers;
  // Clicks on the alignment map while both still train.
  await page.locator('canvas[data-figure="alignment"]').scrollIntoViewIfNeeded();
  await until('the alignment map', async () => (await rect(page, 'alignment', 'out-0')) !== null, 60000);
  await page.evaluate(() => { window.benchInputDelays.length = 0; });
  for (let k = 1; k <= 5; ++k) {
    await clickWidget(page, 'alignment', `out-${k}`);
    await until(`row ${k} selected`, async () => (await state(page, 'alignment')).selected_output === k, 20000);
  }
  out.inputDelays = await page.evaluate(() => window.benchInputDelays.slice());
  out.stillTraining = (await state(page, 'training')).running;
  // "Run all eight": every worker trains.
  await clickWidget(page, 'training', 'pause').catch(() => {});
  await page.locator('canvas[data-figure="sweep"]').scrollIntoViewIfNeeded();
  await until('the sweep figure', async () => (await rect(page, 'sweep', 'run-all')) !== null, 60000);
  await clickWidget(page, 'sweep', 'run-all');
  await until('the sweep to start', async () => (await state(page, 'sweep')).training.length > 0, 60000);
  tasks = await longTaskCount(page);
  out.sweepFps = await framesPerSecond(page, 8000);
  out.sweepLongest = await longestTaskSince(page, tasks);
  out.memory = treeMegabytes(pid);
  out.pageMemory = await pageMegabytes(context, page);
  await context.close();
  return out;
}

async function phone(url) {
  const throttle = Number(option('throttle', 4));
  const { server: browserServer, browser } = await launchServer();
  const pid = browserServer.process().pid;
  const idle = treeMegabytes(pid);
  const devices = [['desktop 1280 × 900, unthrottled', { viewport: { width: 1280, height: 900 }, throttle: 1 }],
                   [`phone 390 × 844, CPU throttled ${throttle}×`, { viewport: { width: 390, height: 844 }, throttle }]];
  for (const [name, device] of devices) {
    const starts = [];
    for (let i = 0; i < loads; ++i) starts.push((await firstFigureTimes(browser, `${url}#bottleneck-figure`, { openTab: true, ...device })).painted);
    const r = await deviceRun(browser, pid, url, device);
    console.log(`\n${name}`);
    print('first visible figure, painted, open tab (ms)', `median ${median(starts).toFixed(0)} of ${starts.map((t) => t.toFixed(0)).join(', ')}`);
    print('training both: frames/s | longest main-thread task (ms)', `${r.trainingFps.toFixed(1)} | ${r.trainingLongest.toFixed(0)}`);
    print(`training both: examples/s per run, busy, ${r.workers} worker(s)`, r.perWorker.map((v) => v.toFixed(0)).join(' | '));
    print('clicks on the map while training: input delay (ms)', `max ${Math.max(...r.inputDelays).toFixed(1)}, median ${median(r.inputDelays).toFixed(1)} of ${r.inputDelays.length}` +
          (r.stillTraining ? '' : ' (training had ended)'));
    print('"Run all eight": frames/s | longest main-thread task (ms)', `${r.sweepFps.toFixed(1)} | ${r.sweepLongest.toFixed(0)}`);
    print('every worker training: the page\'s renderer | all processes (MB, PSS)',
          `${r.memory.renderer.toFixed(0)} | ${r.memory.all.toFixed(0)} (the idle browser: ${idle.renderer.toFixed(0)} | ${idle.all.toFixed(0)})`);
    const m = r.pageMemory;
    print('every worker training: JS heaps + wasm memories (MB)',
          `${m.total.toFixed(1)} = JS ${Object.entries(m.js).map(([k, v]) => `${k} ${v.toFixed(1)}`).join(', ')}; ` +
          `wasm page ${m.wasm.page.toFixed(1)}, ${m.workers} training worker(s) ${m.wasm.workers.toFixed(1)}`);
  }
  await browser.close();
  await browserServer.close();
}

async function sweepMemory() {
  const create = createRequire(import.meta.url)(path.join(site, 'lookback_trainer.js'));
  const module = await create({ wasmBinary: fs.readFileSync(path.join(site, 'lookback_trainer.wasm')) });
  const epochs = Number(option('epochs', 2));
  // The page's sweep and the native one share their widths (assets/sweep.json); largest first,
  // as the page starts them.
  const widths = JSON.parse(fs.readFileSync(path.join(root, 'assets/sweep.json'), 'utf8')).widths;
  for (const width of [...widths].sort((a, b) => b - a)) {
    for (const model of ['attention', 'plain']) {
      const cell = { model, width, epochs, seed: 1, ...(model === 'attention' ? { scorer: 'additive' } : {}) };
      const id = module.ccall('lbt_create', 'number', ['string'], [JSON.stringify(cell)]);
      while (module._lbt_work(id, 1000, -1) === 0);
      print(`after ${model}-${width} (${epochs} epochs): wasm memory (MB)`, (module.HEAP8.length / 2 ** 20).toFixed(1));
    }
  }
}

// --- 7. the pair, as a reader trains it ------------------------------------------------------------
const pairEpochs = Number(option('epochs', 12));
const pairRuns = (w) => [{ model: 'plain', width: w, epochs: pairEpochs, seed: 1 },
                         { model: 'attention', scorer: 'additive', width: w, epochs: pairEpochs, seed: 1 }];

function nativePairSeconds() {
  const cli = path.resolve(option('cli', path.join(root, 'build/native/lookback')));
  const from = performance.now();
  for (const run of pairRuns(width)) {
    const args = ['train', '--model', run.model, '--width', String(run.width), '--epochs', String(run.epochs), '--seed', '1'];
    const result = spawnSync(cli, args, { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${cli} ${args.join(' ')}: ${result.stderr}`);
  }
  return (performance.now() - from) / 1000;
}

async function nodePairSeconds() {
  const create = createRequire(import.meta.url)(path.join(site, 'lookback_trainer.js'));
  const module = await create({ wasmBinary: fs.readFileSync(path.join(site, 'lookback_trainer.wasm')) });
  const from = performance.now();
  for (const run of pairRuns(width)) {
    const id = module.ccall('lbt_create', 'number', ['string'], [JSON.stringify(run)]);
    while (module._lbt_work(id, 1000, -1) === 0);
    module._lbt_destroy(id);
  }
  return (performance.now() - from) / 1000;
}

async function pagePair(browser, url) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const { page, problems } = await openWatched(context, `${url}?tr.width=${width}&tr.epochs=${pairEpochs}`);
  await page.locator('canvas[data-figure="training"]').scrollIntoViewIfNeeded();
  const train = page.locator('.figure-mirror:has(+ canvas[data-figure="training"])').getByRole('button', { name: 'Train', exact: true });
  await until('the training figure\'s Train', async () => (await train.count()) === 1, 60000);
  await until('the shipped models to be evaluated', async () => (await state(page, 'sweep')).shipped.attention !== undefined, 120000);
  await until('the workers to warm up', async () => {  // a reader reads before pressing
    const t = await page.evaluate(() => window.lookback.training());
    return t.workers > 0 && (t.workersWarmed ?? t.workers) === t.workers;  // (a site before the warm-up: at once)
  }, 60000);
  const idleFps = await framesPerSecond(page, 2000);
  await train.focus();
  const from = performance.now();
  await page.keyboard.press('Enter');
  const arrived = [[], []];
  let frames = 0, framesAt = null, pageFps = null;
  for (;;) {
    const s = await state(page, 'training');
    const t = (performance.now() - from) / 1000;
    s.runs.forEach((r, k) => { while (arrived[k].length < r.epochs.length) arrived[k].push(t); });
    if (framesAt === null && s.runs.every((r) => r.steps > 0)) {
      [frames, framesAt] = [await page.evaluate(() => window.lookback.frames('training')), t];
      pageFps = await framesPerSecond(page, 2000);
    }
    if (s.runs.every((r) => r.done)) {
      const drawn = await page.evaluate(() => window.lookback.frames('training')) - frames;
      const result = { seconds: t, arrived, fps: drawn / (t - framesAt), workers: s.workers, stats: await page.evaluate(() => window.lookback.training()),
                       busy: s.runs.map((r) => r.busy_examples_per_second), idleFps, pageFps,
                       exact: s.runs.map((r) => r.epochs.at(-1)?.exact) };
      if (problems.length) throw new Error(`the page reported: ${problems.join('; ')}`);
      await context.close();
      return result;
    }
    await page.waitForTimeout(100);
  }
}

// The SIMD128 peak and each model's FLOPs per training example (docs/design.md's model), from
// `lookback bench` built to WebAssembly, run now (its peak loop: mul+add on 12 accumulators).
function wasmPeak() {
  const cli = path.join(root, 'build/wasm/lookback.js');
  const result = spawnSync(process.execPath, ['--no-experimental-fetch', cli, 'bench', '--json', '--seconds', '1', '--widths', String(width),
                                               '--models', 'plain,additive'], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`${cli} bench: ${result.stderr}`);
  const bench = JSON.parse(result.stdout);
  return { gflops: bench.peak.gflops, flops: bench.results.map((r) => r.flops_per_training_example) };  // plain, attention
}

async function pair() {
  const server = await serve(site);
  const browser = await launch();
  for (let i = 0; i < Number(option('repeat', 1)); ++i) {
    const load = os.loadavg()[0];
    const native = nativePairSeconds();
    const inNode = await nodePairSeconds();
    const page = await pagePair(browser, server.url);
    print(`round ${i + 1} (load average ${load.toFixed(1)} → ${os.loadavg()[0].toFixed(1)})`, '');
    print(`  native CLI: plain then attention, ${pairEpochs} epochs (s)`, native.toFixed(1));
    print(`  training module under node: the same (s)`, inNode.toFixed(1));
    print(`  page, Train pressed to both runs' last epoch (s)`, `${page.seconds.toFixed(1)} = ${(page.seconds / native).toFixed(2)}× native, ${(page.seconds / inNode).toFixed(2)}× node`);
    print('  page: workers | frames/s of the figure while training', `${page.workers} (${JSON.stringify({ size: page.stats.size, cores: page.stats.cores })}) | ${page.fps.toFixed(1)}`);
    print('  page: animation frames/s, idle | training', `${page.idleFps.toFixed(1)} | ${page.pageFps.toFixed(1)}`);
    print('  page: each epoch arrived, plain (s)', page.arrived[0].map((t) => t.toFixed(1)).join(' '));
    print('  page: each epoch arrived, attention (s)', page.arrived[1].map((t) => t.toFixed(1)).join(' '));
    print('  page: last epoch exact, plain | attention', page.exact.map((e) => e?.toFixed(4)).join(' | '));
    print('  page: each worker\'s wasm memory (MB)', page.stats.workerWasmBytes.map((b) => (b / 2 ** 20).toFixed(1)).join(' | '));
    const peak = wasmPeak();
    print('  page: busy examples/s, plain | attention', page.busy.map((e) => e.toFixed(0)).join(' | '));
    print(`  page: of the SIMD128 peak (${peak.gflops.toFixed(1)} GFLOP/s, measured now)`,
          page.busy.map((e, k) => `${(100 * e * peak.flops[k] / 1e9 / peak.gflops).toFixed(1)}%`).join(' | '));
  }
  await browser.close();
  server.close();
}

// --- run -----------------------------------------------------------------------------------------------
console.log(`machine: ${os.cpus()[0].model}, ${os.cpus().length} cores; width ${width}; ${seconds} s per rate in ${rounds} rounds`);
if (flag('pair')) {
  await pair();
  process.exit(0);
}
if (flag('sweep-memory')) {
  await sweepMemory();
  process.exit(0);
}
const server = await serve(site);
if (flag('phone')) {
  await phone(server.url);
  server.close();
  process.exit(0);
}
const browser = await launch();

const startups = { newWindow: [], openTab: [] };
for (let i = 0; i < loads; ++i) {
  startups.newWindow.push(await firstFigureTimes(browser, `${server.url}#bottleneck-figure`, { openTab: false }));
  startups.openTab.push(await firstFigureTimes(browser, `${server.url}#bottleneck-figure`, { openTab: true }));
}

const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
const { page } = await openWatched(context, server.url);
const node = [], worker = [];
for (let i = 0; i < rounds; ++i) {
  node.push(await nodeExamplesPerSecond(seconds / rounds));
  worker.push(await workerExamplesPerSecond(page, seconds / rounds));
}
const ratios = worker.map((w, i) => w.wall / node[i].wall);
const medianOf = (runs, key) => median(runs.map((r) => r[key]));
const swept = flag('no-sweep') ? null : await sweep(page);
await browser.close();
server.close();
const torch = flag('no-pytorch') ? null : pytorchCellSeconds();

print('node, training module: attention examples/s (busy | wall)', `${medianOf(node, 'busy').toFixed(0)} | ${medianOf(node, 'wall').toFixed(0)} (medians)`);
print('Web Worker, same module: examples/s (busy | wall)', `${medianOf(worker, 'busy').toFixed(0)} | ${medianOf(worker, 'wall').toFixed(0)} (medians)`);
print('worker / node (wall clock, each round)', `median ${(100 * median(ratios)).toFixed(1)}% of ${ratios.map((r) => `${(100 * r).toFixed(1)}%`).join(', ')}`);
const startup = (loads, key) => { const times = loads.map((t) => t[key]); return `median ${median(times).toFixed(0)} of ${times.map((t) => t.toFixed(0)).join(', ')}`; };
for (const [way, loads] of [['new window', startups.newWindow], ['open tab', startups.openTab]]) {
  print(`first visible figure, painted, ${way} (ms)`, startup(loads, 'painted'));
  print(`first visible figure, next frame, ${way} (ms)`, startup(loads, 'nextFrame'));
}
if (swept) {
  print('frames/s while every worker trains the sweep', swept.fps.toFixed(1));
  print(`"Run all eight", 12 epochs, on ${swept.workers} worker(s): wall seconds`, swept.wall.toFixed(1));
  const costs = swept.cells.map((c) => c.seconds);
  if (costs.length === 8) {
    print('cells (model width: busy seconds)', swept.cells.map((c) => `${c.model} ${c.width}: ${c.seconds.toFixed(1)}`).join(', '));
    for (const cores of [4, 8]) print(`estimated wall seconds with ${cores} cores (${cores - 1} workers)`, makespan(costs, cores - 1).toFixed(1));
  }
}
if (torch) print(`PyTorch ${torch.version}, attention ${width}: 12 epochs at ${torch.rate.toFixed(0)} ex/s (s)`, torch.seconds.toFixed(1));
else if (!flag('no-pytorch')) print('PyTorch', 'not installed (Debian: python3-torch); skipped');

// web/worker/client.js — the page's side of training: a pool of training workers
// (training_worker.js) and the runs placed on them. The page's module (web/lab/runs.cpp) calls it
// through Module.lookbackRuns; what the workers say comes back through `handlers`.
//
// How many workers: on two cores, two, so that the training figure's pair trains one model per
// core (the page's thread is idle between its redraws, four a second while training, and takes
// its turn when it wakes); on more, one per core but the page's. The cores are counted, not taken
// from navigator.hardwareConcurrency where the browser says more than two (WebKitGTK says 4 on a
// 2-core machine, and its three workers then trained a third slower than one): once the page is
// idle, core_probe.js workers, as many as the browser says there are cores (at most 8), each turn
// a loop as often as one alone turns it in 40 ms, all at once; the cores are the time those turns
// take one worker alone, times the workers, over the time they all took, rounded down unless
// within 0.3 of the next. Until then the pool is one worker.
//
// The training module is compiled once, here, and handed to each worker as it starts (a
// WebAssembly.Module can be posted): no worker compiles it again, and an engine that tiers up a
// module's code as it runs (JavaScriptCore) does so once for all of them.
//
// Where no Worker can start (a browser that refuses one, a file:// page), the same engine runs
// on the page's main thread in short slices, and handlers.mode says so.
'use strict';
// eslint-disable-next-line no-unused-vars
function createTrainingClient(handlers) {
  const reported = navigator.hardwareConcurrency || 2;
  let cores = reported <= 2 ? reported : null;  // as counted where the browser says more (null until then)
  let size = cores ?? 1;     // workers at most (the top of this file)
  const slots = [];          // {worker, ready, queue: [[message, transfer]], runs: Set, tasks: Map, wasmBytes}
  // The reader's tasks the page gave (name -> {source}: a new object each time one is replaced).
  // A slot's `tasks` holds the ones sent to it, so each worker is sent a task's source (up to
  // 2 MiB of pairs) once, before its first run of it; a worker that starts, after a crash or on
  // the main thread, has been sent none.
  const tasks = new Map();
  const home = new Map();    // run -> slot
  let main = null;           // the main-thread engine's slot, once falling back
  let mode = 'workers';
  let faultNext = null;
  let evaluations = 0;

  function receive(slot, message) {
    switch (message.type) {
      case 'ready':
        slot.ready = true;
        for (const [m, transfer] of slot.queue.splice(0)) slot.worker.postMessage(m, transfer);
        break;
      case 'report':
        slot.wasmBytes = message.wasmBytes;
        handlers.report(message.run, message.report);
        if (message.weights) handlers.weights(message.run, new Uint8Array(message.weights));
        break;
      case 'state':
        if (message.state === 'failed') forget(message.run);
        handlers.state(message.run, message.state, message.message || '');
        break;
      case 'evaluated': slot.evaluating--; handlers.evaluated(message.id, message.json); break;
      case 'warmed': slot.warmed = true; break;
      case 'crashed':
        if (!slot.ready && slot !== main) fallBack(`a training worker could not start (${message.message})`);
        else lose(slot, message.message);
        break;
      default: break;
    }
  }

  function forget(run) {
    const slot = home.get(run);
    if (slot) slot.runs.delete(run);
    home.delete(run);
  }

  // A worker that died: its runs end with its message, and it leaves the pool.
  function lose(slot, why) {
    slot.worker?.terminate();
    slots.splice(slots.indexOf(slot), 1);
    for (const run of slot.runs) {
      home.delete(run);
      handlers.state(run, 'failed', `the training worker stopped: ${why}`);
    }
    slot.runs.clear();
  }

  // The training module compiled once (the top of this file), or null where it cannot be: each
  // worker then compiles its own.
  let compiling = null;
  function compiledModule() {
    compiling ??= (async () => {
      const response = fetch('lookback_trainer.wasm');
      if (WebAssembly.compileStreaming) return WebAssembly.compileStreaming(response);
      return WebAssembly.compile(await (await response).arrayBuffer());
    })().catch(() => null);
    return compiling;
  }

  function newWorkerSlot() {
    const slot = { worker: null, ready: false, queue: [], runs: new Set(), tasks: new Map(), evaluating: 0 };
    try {
      slot.worker = new Worker('training_worker.js');
    } catch (error) {
      fallBack(`this page cannot start a Web Worker (${error.message || error})`);
      return main;
    }
    compiledModule().then((module) => {
      try {
        slot.worker.postMessage({ type: 'start', module });
      } catch {  // an engine that cannot post a module: the worker compiles its own
        slot.worker.postMessage({ type: 'start', module: null });
      }
    });
    slot.worker.onmessage = (event) => receive(slot, event.data);
    slot.worker.onerror = (event) => {
      event.preventDefault();
      const why = event.message || 'an error in the worker';
      if (!slot.ready) fallBack(`a training worker could not start (${why})`);
      else lose(slot, why);
    };
    slots.push(slot);
    return slot;
  }

  function loadScript(src) {
    return new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = src;
      script.onload = resolve;
      script.onerror = () => reject(new Error(`${src} did not load`));
      document.head.append(script);
    });
  }

  // Everything from now on trains on this thread; what waited for a worker goes there.
  function fallBack(reason) {
    if (main) return;
    mode = 'main thread';
    main = { worker: null, ready: false, queue: [], runs: new Set(), tasks: new Map(), evaluating: 0, engine: null };
    for (const slot of slots.splice(0)) {
      slot.worker?.terminate();
      main.queue.push(...slot.queue);
      for (const run of slot.runs) {
        main.runs.add(run);
        home.set(run, main);
      }
      main.evaluating += slot.evaluating;
    }
    handlers.mode(`Training runs on the page's main thread, slower: ${reason}.`);
    const start = () => createLookbackTrainer().then((module) => {
      main.engine = new TrainingEngine(module, (message) => receive(main, message),
        { sliceMs: 8, yieldToLoop: (callback) => setTimeout(callback, 0) });
      main.ready = true;
      for (const [m] of main.queue.splice(0)) main.engine.handle(m);
    });
    Promise.all([loadScript('engine.js'), loadScript('lookback_trainer.js')]).then(start)
      .catch((error) => handlers.mode(`Training cannot run in this page: ${error.message || error}.`));
  }

  function send(slot, message, transfer = []) {
    if (!slot.ready) slot.queue.push([message, transfer]);
    else if (slot === main) main.engine.handle(message);
    else slot.worker.postMessage(message, transfer);
  }

  // The slot with the fewest runs; a new worker while the pool is not full.
  function leastBusy() {
    if (main) return main;
    const load = (slot) => slot.runs.size + slot.evaluating;
    const best = slots.reduce((a, b) => (load(b) < load(a) ? b : a), slots[0]);
    if (!best || (load(best) > 0 && slots.length < size)) return newWorkerSlot();
    return best;
  }

  // The cores that run at once, counted by core_probe.js workers (see the top of this file).
  async function countCores() {
    const probes = Array.from({ length: Math.min(reported, 8) }, () => new Worker('core_probe.js'));
    const spin = (worker, task) => new Promise((resolve, reject) => {
      worker.onmessage = (event) => resolve(event.data.turns);
      worker.onerror = (event) => { event.preventDefault(); reject(new Error(event.message || 'core_probe.js failed')); };
      worker.postMessage(task);
    });
    try {
      await Promise.all(probes.map((worker) => spin(worker, { ms: 20 })));  // started, their loops compiled
      // The turns one worker alone makes in 40 ms, then all of them that many each, at once, then
      // one alone again: the best of the three alone (another program's moment on the core would
      // count one low) is how long those turns take alone.
      const turns = await spin(probes[0], { ms: 40 });
      const from = performance.now();
      await Promise.all(probes.map((worker) => spin(worker, { turns })));
      const together = performance.now() - from;
      const best = Math.max(turns, await spin(probes[1] ?? probes[0], { ms: 40 }), await spin(probes[0], { ms: 40 }));
      const parallel = (probes.length * 40 * turns) / best / together;
      return Math.max(1, Math.min(probes.length, Math.floor(parallel + 0.3)));
    } finally {
      for (const worker of probes) worker.terminate();
    }
  }
  if (reported > 2 && typeof Worker !== 'undefined' && location.protocol !== 'file:') {
    const whenIdle = window.requestIdleCallback || ((work) => setTimeout(work, 1000));
    whenIdle(() => countCores().then((counted) => {
      cores = counted;
      size = counted <= 2 ? counted : counted - 1;
    }, () => {}), { timeout: 5000 });  // a probe that cannot start: one worker, as before it counted
  }

  return {
    get workers() { return size; },
    mode: () => mode,
    // A reader's own task `name` made from `source` (JSON text, engine.js), new or replaced.
    task(name, source) { tasks.set(name, { source }); },
    create(run, config) {
      const slot = leastBusy();
      slot.runs.add(run);
      home.set(run, slot);
      const task = tasks.get(config.task);
      if (task && slot.tasks.get(config.task) !== task) {
        send(slot, { type: 'task', name: config.task, source: task.source });
        slot.tasks.set(config.task, task);
      }
      const full = faultNext ? { ...config, fault: faultNext } : config;
      faultNext = null;
      send(slot, { type: 'create', run, config: full });
    },
    play(run, stopAtStep = -1) { const s = home.get(run); if (s) send(s, { type: 'play', run, stopAtStep }); },
    pause(run) { const s = home.get(run); if (s) send(s, { type: 'pause', run }); },
    dispose(run) {
      const s = home.get(run);
      if (!s) return;
      send(s, { type: 'dispose', run });
      forget(run);
    },
    // A figure that trains is near: every worker the pool has room for starts, and each trains a
    // throwaway model while it has nothing else to do (engine.js's on_warm).
    warm() {
      if (main) return;
      while (slots.length < size && newWorkerSlot() !== main);
      for (const slot of slots) send(slot, { type: 'warm', steps: 150 });  // once: engine.js ignores it after
    },
    evaluate(id, bytes) {
      const slot = leastBusy();
      slot.evaluating++;
      const copy = bytes.slice().buffer;
      send(slot, { type: 'evaluate', id, bytes: copy }, [copy]);
      evaluations++;
    },
    // For tests: how training is placed, and a way to make the next run's worker fail.
    stats: () => ({
      mode, size, workers: slots.length, cores, reportedCores: reported,
      workersReady: slots.filter((slot) => slot.ready).length,
      evaluating: slots.reduce((sum, slot) => sum + slot.evaluating, 0),
      mainThreadSlices: main?.engine ? main.engine.slicesTrained : 0,
      evaluations,
      workerWasmBytes: slots.map((slot) => slot.wasmBytes ?? 0),  // as of each one's last report
      runsPerWorker: slots.map((slot) => slot.runs.size),
      workersWarmed: slots.filter((slot) => slot.warmed).length,
    }),
    failNext(kind) { faultNext = kind; },
  };
}

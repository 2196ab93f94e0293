// web/worker/engine.js — runs training on one instance of the training module
// (web/worker/training_module.cpp): in a Web Worker (training_worker.js), or on the page's main
// thread when no Worker can start (client.js). It takes the client's messages and answers with
// its own through `post`:
//
//   in   {type: 'task', name, source}    a reader's own task: its text and options as JSON
//                                          text (lbt_pairs_task), made into the same task here,
//                                          or replacing the one of that name; sent once, before
//                                          the first run of it here
//        {type: 'create', run, config}     a run (config: training_module.cpp's lbt_create)
//        {type: 'play', run, stopAtStep}   train until done, or until step stopAtStep (≥ 0)
//        {type: 'pause', run}  {type: 'dispose', run}
//        {type: 'evaluate', id, bytes}     the held-out metrics of a weights file
//        {type: 'warm', steps}             train a throwaway model for `steps` batches while no
//                                          run plays (see on_warm)
//   out  {type: 'report', run, report, wasmBytes, weights}   JSON text: new losses, epochs,
//                                          metrics, progress; the module's memory now, in bytes;
//                                          and when the report ends an epoch, that epoch's weights
//                                          (a safetensors file in an ArrayBuffer, transferred)
//        {type: 'state', run, state, message}   'done' | 'paused' | 'failed'
//        {type: 'evaluated', id, json}
//        {type: 'warmed'}                  the warm-up ended (done, or cut short by a run)
//        {type: 'crashed', message}        the module itself failed: nothing here runs again
//
// Active runs share the thread: each slice goes to the run furthest behind, so two runs on one
// core advance side by side. Between slices the engine yields, so messages (Pause) get in.
'use strict';
class TrainingEngine {
  // sliceMs: training per slice; yieldToLoop(callback): how to let the thread's events in.
  constructor(module, post, { sliceMs, yieldToLoop }) {
    this.module = module;
    this.post = post;
    this.sliceMs = sliceMs;
    this.yieldToLoop = yieldToLoop;
    this.runs = new Map();   // client's run id -> {id (the module's), playing, stopAtStep, fraction, fault}
    // A reader's task whose last source the module refused, by name -> the refusal: its runs fail
    // with it rather than train on the task it was to replace.
    this.refusedTasks = new Map();
    this.warm = null;        // the throwaway run of on_warm: {id, steps}, until it ends
    this.warmed = false;     // on_warm has run (a worker warms up once)
    this.scheduled = false;
    this.crashed = false;
    this.slicesTrained = 0;  // slices of training done here (the page's test reads it)
  }

  handle(message) {
    const handler = this[`on_${message.type}`];
    if (this.crashed || typeof handler !== 'function') return;
    try {
      handler.call(this, message);
    } catch (error) {
      this.crash(error);
    }
  }

  on_task({ name, source }) {
    // The text may be 2 MiB: on the heap, not ccall's stack.
    if (this.withString(source, (pointer) => this.module._lbt_pairs_task(pointer)) < 0) this.refusedTasks.set(name, this.message());
    else this.refusedTasks.delete(name);
  }
  on_create({ run, config }) {
    const { fault, ...rest } = config;  // `fault`: a test's way to make this run's worker fail
    if (this.refusedTasks.has(rest.task)) {
      this.post({ type: 'state', run, state: 'failed', message: this.refusedTasks.get(rest.task) });
      return;
    }
    const id = this.module.ccall('lbt_create', 'number', ['string'], [JSON.stringify(rest)]);
    if (id < 0) {
      this.post({ type: 'state', run, state: 'failed', message: this.message() });
      return;
    }
    this.runs.set(run, { id, playing: false, stopAtStep: -1, fraction: 0, fault });
  }
  // Engines compile a module's code fast first and optimise what runs hot: JavaScriptCore's first
  // epoch was 3–4 times slower than its next (BENCHMARKS.md, "Three engines"), since its
  // optimising tier compiles the training code only after about a second of running it. So the
  // page asks for a warm-up once the training figure is near (client.js): a small model (width
  // 8) trains for `steps` batches, in slices, only while no run plays, and is let go when one
  // starts; the code it made hot is the code every run calls.
  on_warm({ steps }) {
    if (this.warm || this.warmed) return;
    const config = { model: 'attention', scorer: 'additive', width: 8, epochs: 2, seed: 1 };
    const id = this.module.ccall('lbt_create', 'number', ['string'], [JSON.stringify(config)]);
    if (id < 0) return;
    this.warm = { id, steps };
    this.schedule();
  }
  endWarm() {
    if (!this.warm) return;
    this.module._lbt_destroy(this.warm.id);
    this.warm = null;
    this.warmed = true;
    this.post({ type: 'warmed' });
  }
  on_play({ run, stopAtStep }) {
    const r = this.runs.get(run);
    if (!r) return;
    this.endWarm();
    r.playing = true;
    r.stopAtStep = stopAtStep ?? -1;
    this.schedule();
  }
  // Always answered, so the page knows when the run has really stopped.
  on_pause({ run }) {
    const r = this.runs.get(run);
    if (!r) return;
    r.playing = false;
    this.post({ type: 'state', run, state: r.done ? 'done' : 'paused' });
  }
  on_dispose({ run }) {
    const r = this.runs.get(run);
    if (!r) return;
    this.module._lbt_destroy(r.id);
    this.runs.delete(run);
  }
  // A run's weights as a safetensors file in an ArrayBuffer, or null (the module's message says why).
  weightsOf(id) {
    const sizePointer = this.module._malloc(4);
    const data = this.module._lbt_weights(id, sizePointer);
    const size = this.module.HEAP32[sizePointer >> 2];
    this.module._free(sizePointer);
    return !data || size < 0 ? null : this.module.HEAPU8.slice(data, data + size).buffer;
  }
  on_evaluate({ id, bytes }) {
    const data = new Uint8Array(bytes);
    const pointer = this.module._malloc(Math.max(1, data.length));
    this.module.HEAPU8.set(data, pointer);
    const json = this.module.UTF8ToString(this.module._lbt_evaluate(pointer, data.length));
    this.module._free(pointer);
    this.post({ type: 'evaluated', id, json });
  }

  // Calls `body` with `text` as a NUL-terminated UTF-8 string on the module's heap.
  withString(text, body) {
    const bytes = new TextEncoder().encode(text);
    const pointer = this.module._malloc(bytes.length + 1);
    try {
      this.module.HEAPU8.set(bytes, pointer);
      this.module.HEAPU8[pointer + bytes.length] = 0;
      return body(pointer);
    } finally {
      this.module._free(pointer);
    }
  }

  message() { return this.module.UTF8ToString(this.module._lbt_message()); }

  schedule() {
    if (this.scheduled) return;
    this.scheduled = true;
    this.yieldToLoop(() => {
      this.scheduled = false;
      if (!this.crashed) this.slice();
    });
  }

  // One slice of the run furthest behind, then its report; or of the warm-up, if no run plays.
  slice() {
    let next, nextRun;
    for (const [run, r] of this.runs) {
      if (r.playing && (!next || r.fraction < next.fraction)) [next, nextRun] = [r, run];
    }
    if (!next && this.warm) {
      try {
        // Past the first epoch, so its held-out decoding warms too.
        if (this.module._lbt_work(this.warm.id, this.sliceMs, this.warm.steps) !== 0) this.endWarm();
        else this.schedule();
      } catch (error) {
        this.crash(error);
      }
      return;
    }
    if (!next) return;
    try {
      if (next.fault === 'throw') throw new Error('this run was made to fail by a test');
      const status = this.module._lbt_work(next.id, this.sliceMs, next.stopAtStep);
      this.slicesTrained++;
      const report = this.module.UTF8ToString(this.module._lbt_report(next.id));
      if (report !== 'null') {
        const parsed = JSON.parse(report);
        next.fraction = parsed.fraction;
        // An epoch ended: the figures that read the model want its weights, so they come along.
        const weights = parsed.epochs.length > 0 ? this.weightsOf(next.id) : null;
        if (parsed.epochs.length > 0 && !weights) {
          next.playing = false;
          this.post({ type: 'state', run: nextRun, state: 'failed', message: this.message() });
          this.schedule();
          return;
        }
        this.post({ type: 'report', run: nextRun, report, wasmBytes: this.module.HEAP8.length, weights },
          weights ? [weights] : []);
      }
      if (status !== 0) {
        next.playing = false;
        next.done = status === 1;
        const state = status === 1 ? 'done' : status === 2 ? 'paused' : 'failed';
        this.post({ type: 'state', run: nextRun, state, message: status < 0 ? this.message() : '' });
      }
    } catch (error) {
      this.crash(error);
      return;
    }
    this.schedule();
  }

  // A trap or an exception out of the module: its memory may be anything now.
  crash(error) {
    this.crashed = true;
    this.post({ type: 'crashed', message: String(error && error.message ? error.message : error) });
  }
}
if (typeof module !== 'undefined') module.exports = { TrainingEngine };

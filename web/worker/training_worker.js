// web/worker/training_worker.js — a dedicated Web Worker that trains: the training module
// (lookback_trainer.js/.wasm) driven by web/worker/engine.js. Its first message is
// {type: 'start', module}: the module the page compiled (client.js), or null, and then it fetches
// and compiles its own. The rest are engine.js's; it says {type: 'ready'} once the module runs,
// or {type: 'crashed'} if it cannot start.
'use strict';
importScripts('engine.js', 'lookback_trainer.js');

const pending = [];

// A zero-delay yield that is not clamped like nested timeouts: a message to ourselves.
const channel = new MessageChannel();
const callbacks = [];
channel.port1.onmessage = () => callbacks.shift()();
const yieldToLoop = (callback) => {
  callbacks.push(callback);
  channel.port2.postMessage(0);
};

const crashed = (error) => self.postMessage({ type: 'crashed', message: `the training module did not start: ${error}` });

self.onmessage = (first) => {
  self.onmessage = (event) => pending.push(event.data);
  const compiled = first.data.module;
  // Emscripten's hook: instantiate the given module instead of fetching one.
  const instantiateWasm = (imports, receive) => {
    WebAssembly.instantiate(compiled, imports).then((instance) => receive(instance, compiled), crashed);
    return {};
  };
  createLookbackTrainer(compiled ? { instantiateWasm } : {}).then((module) => {
    const post = (message, transfer) => self.postMessage(message, transfer || []);
    const engine = new TrainingEngine(module, post, { sliceMs: 50, yieldToLoop });
    self.onmessage = (event) => engine.handle(event.data);
    post({ type: 'ready' });
    for (const message of pending.splice(0)) engine.handle(message);
  }, crashed);
};

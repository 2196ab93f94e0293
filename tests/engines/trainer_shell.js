// tests/engines/trainer_shell.js — the training module (lookback_trainer.js/.wasm) outside any page
// and any worker: one epoch (94 steps) of a width-8 attention model, three rounds on one
// instance, timed. The same file runs under node (V8) and under JavaScriptCore's shell
// (Debian's libjavascriptcoregtk-4.0-bin), to tell the engine's share of WebKit's slower training
// from the page's (BENCHMARKS.md, "Three engines"):
//
//   node tests/engines/trainer_shell.js build/site
//   jsc [JSC options, e.g. --useOMGJIT=false] tests/engines/trainer_shell.js -- build/site
'use strict';
var isNode = typeof process === 'object';
var folder = (isNode ? process.argv[2] : (typeof scriptArgs !== 'undefined' ? scriptArgs : arguments)[0]) || 'build/site';
var now = isNode ? () => performance.now() : () => preciseTime() * 1000;
if (!isNode) globalThis.performance = { now };
var say = isNode ? console.log : print;
var binary = isNode ? require('fs').readFileSync(`${folder}/lookback_trainer.wasm`) : readFile(`${folder}/lookback_trainer.wasm`, 'binary');
var create = isNode ? require(require('path').resolve(folder, 'lookback_trainer.js')) : (load(`${folder}/lookback_trainer.js`), createLookbackTrainer);
create({ wasmBinary: binary, print: say, printErr: say }).then((m) => {
  var config = JSON.stringify({ model: 'attention', scorer: 'additive', width: 8, epochs: 1, seed: 3 });
  for (var round = 1; round <= 3; round++) {
    var id = m.ccall('lbt_create', 'number', ['string'], [config]);
    var from = now();
    m._lbt_work(id, 1e9, 100);  // stops at the epoch's end
    const steps = JSON.parse(m.UTF8ToString(m._lbt_report(id))).steps;
    say(`round ${round}: ${steps} steps of width 8 in ${(now() - from).toFixed(0)} ms`);
  }
}, (error) => say(`the module did not start: ${error}`));

// web/page/compile_figures.js — starts fetching and compiling the figures' module
// (lookback_web.wasm) as the article begins to be parsed; web/page/lookback.js instantiates it.
// The page's one script that blocks the parser, and a small one: deferred and async scripts run
// only when parsing ends, and compiling the module only then held the first figure back.
'use strict';
window.lookbackCompiled = WebAssembly.compileStreaming(fetch('lookback_web.wasm'))
  // A server that does not say application/wasm: compiled from the bytes instead.
  .catch(() => fetch('lookback_web.wasm').then((response) => {
    if (!response.ok) throw new Error(`lookback_web.wasm answered HTTP ${response.status}`);
    return response.arrayBuffer();
  }).then((bytes) => WebAssembly.compile(bytes)));
window.lookbackCompiled.catch(() => {});  // reported by lookback.js, which waits for it

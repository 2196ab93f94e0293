// web/worker/core_probe.js — a worker that turns a loop, for the milliseconds it is sent ({ms}) or
// a number of times ({turns}), and says how many turns it made: client.js times one alone, then
// several at once, to count the cores that really run in parallel.
'use strict';
self.onmessage = (event) => {
  const { ms, turns: wanted } = event.data;
  const end = performance.now() + (ms ?? Infinity);
  let turns = 0;
  let x = 1;
  while (wanted !== undefined ? turns < wanted : performance.now() < end) {
    for (let i = 0; i < 20000; i++) x = (Math.imul(x, 1103515245) + 12345) | 0;
    turns++;
  }
  self.postMessage({ turns, x });
};

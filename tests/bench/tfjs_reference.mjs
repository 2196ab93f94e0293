#!/usr/bin/env node
// tests/bench/tfjs_reference.mjs — the TensorFlow.js reference peer of
// `lookback bench`: the same attention model as
// tests/bench/pytorch_reference.py, trained the same way, in TensorFlow.js 4.22
// under node, on its wasm backend (with SIMD, one thread) or its plain
// JavaScript cpu backend, timed in training examples per CPU second.
//
// Not part of the test suite and not a dependency of the project: the packages
// live in a folder of their own (git-ignored), never in package.json:
//
//   npm install --prefix build/bench-node --no-save --no-audit --no-fund @tensorflow/tfjs@4.22.0 \
//       @tensorflow/tfjs-core@4.22.0 @tensorflow/tfjs-backend-wasm@4.22.0
//   node tests/bench/tfjs_reference.mjs [--backend wasm|cpu] [--seconds 10] [--json]
//
// (tests/bench/run.mjs does both.) LOOKBACK_TFJS_DIR overrides the folder.
// The umbrella @tensorflow/tfjs is needed for its gradients: tfjs-core's node
// bundle registers none ("gradient function not found for Neg"), and its
// register_all_gradients is an ES module node cannot load; tfjs's node bundle
// registers all of them against the same tfjs-core.
//
// The model (as pytorch_reference.py and core/models/model.h), width H = 64, batch 64:
// input embedding [40, 32]; encoder GRU(32, H) in nn.GRU's layout (gates r, z, n,
// an input and a recurrent bias, n = tanh(x W_in + b_in + r ⊙ (h W_hn + b_hn)));
// decoder start state = each row's true last encoder state; output embedding
// [13, 16]; decoder GRU over [embedded previous char (16) ; context (H)];
// additive attention over the real (unpadded) source positions,
// score_j = v · tanh(W_e h_j + W_d s); output dense [H, 13] + bias. 57,437
// parameters. Adam (lr 1e-3, β 0.9/0.999, ε 1e-7), mean cross-entropy over the
// 10 teacher-forced output characters.
//
// TensorFlow.js specifics, none of which changes the arithmetic:
// - weights are stored input-major ([in, 3H], Keras' layout) so that products
//   need no transpose; biases go through tf.fused.matMul, as tf.layers does;
// - embeddings are one-hot · matrix products: the wasm backend has no
//   UnsortedSegmentSum kernel, so tf.gather's gradient cannot run on it;
// - the true last encoder state is picked with a 0/1 mask per step, padding is
//   masked with a large negative score (-1e9) before the softmax;
// - the output layer runs once on the 10 stacked decoder states.
// The strings follow docs/dataset.md's six formats (a seeded RNG of its own,
// like pytorch_reference.py): the time depends on the lengths, not the dates.
// Like the runner, the clock is this process's CPU time (process.cpuUsage()).
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

// --- options -------------------------------------------------------------------
const args = process.argv.slice(2);
let backend = 'wasm', seconds = 10, json = false;
for (let i = 0; i < args.length; ++i) {
  const a = args[i];
  if (a === '--json') json = true;
  else if (a === '--backend' && i + 1 < args.length) backend = args[++i];
  else if (a === '--seconds' && i + 1 < args.length) seconds = Number(args[++i]);
  else {
    console.error(`tfjs_reference.mjs: unknown option '${a}'\n` +
                  'usage: node tests/bench/tfjs_reference.mjs [--backend wasm|cpu] [--seconds S] [--json]');
    process.exit(2);
  }
}
if (backend !== 'wasm' && backend !== 'cpu') { console.error(`unknown backend '${backend}'`); process.exit(2); }
const log = (m) => (json ? console.error(m) : console.log(m));

// --- TensorFlow.js from its own folder -------------------------------------------
const tfjsDir = resolve(process.env.LOOKBACK_TFJS_DIR || join(root, 'build/bench-node'));
const require = createRequire(join(tfjsDir, 'index.js'));
let tf;
try {
  tf = require('@tensorflow/tfjs');   // tfjs-core + the gradients (+ layers, unused)
  if (backend === 'wasm') {
    const wasm = require('@tensorflow/tfjs-backend-wasm');
    // The .wasm binaries ship in the package's dist folder; under node a file
    // path prefix works (the Emscripten loader reads it with fs).
    const wasmDir = join(dirname(require.resolve('@tensorflow/tfjs-backend-wasm')), '/');
    wasm.setWasmPaths(wasmDir);
  } else {
    require('@tensorflow/tfjs-backend-cpu');
  }
} catch (e) {
  console.error(`tfjs_reference.mjs: cannot load TensorFlow.js from ${tfjsDir}: ${e.message}\n` +
                `install it there: npm install --prefix ${tfjsDir} --no-save @tensorflow/tfjs@4.22.0 ` +
                '@tensorflow/tfjs-core@4.22.0 @tensorflow/tfjs-backend-wasm@4.22.0');
  process.exit(3);
}

let simd = null, threads = null, wasmFile = null;
if (backend === 'wasm') {
  simd = await tf.env().getAsync('WASM_HAS_SIMD_SUPPORT');
  threads = await tf.env().getAsync('WASM_HAS_MULTITHREAD_SUPPORT');
  wasmFile = simd && threads ? 'tfjs-backend-wasm-threaded-simd.wasm'
    : simd ? 'tfjs-backend-wasm-simd.wasm' : 'tfjs-backend-wasm.wasm';
}
if (!(await tf.setBackend(backend))) throw new Error(`tf.setBackend('${backend}') failed`);
await tf.ready();
let threadCount = 1;
if (backend === 'wasm') {
  const b = tf.backend();
  if (b.wasm?.tfjs?.getThreadsCount) threadCount = b.wasm.tfjs.getThreadsCount();
}
log(`TensorFlow.js ${tf.version_core}, backend ${tf.getBackend()}` +
    (backend === 'wasm' ? `, WASM_HAS_SIMD_SUPPORT=${simd}, WASM_HAS_MULTITHREAD_SUPPORT=${threads}, ` +
                          `binary ${wasmFile}, threads ${threadCount}` : ''));
if (backend === 'wasm' && !simd) log('warning: no WASM SIMD here: this measures the scalar wasm binary');

// --- data: docs/dataset.md's six formats ----------------------------------------
const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august',
                'september', 'october', 'november', 'december'];
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];  // getUTCDay order
const INPUT_CHARS = 'abcdefghijklmnopqrstuvwxyz0123456789 /,';   // ids 1..39, 0 = pad
const OUTPUT_CHARS = '0123456789-';                                // ids 2..12, 0 = pad, 1 = start
const V_IN = 40, V_OUT = 13, T_OUT = 10, B = 64, H = 64, E_IN = 32, E_OUT = 16;

function random(seed) {            // a small seeded generator (xorshift32), floats in [0, 1)
  let x = seed >>> 0 || 1;
  return () => { x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0; return x / 4294967296; };
}
const ordinal = (d) => (d % 100 >= 11 && d % 100 <= 13 ? `${d}th`
  : `${d}${({ 1: 'st', 2: 'nd', 3: 'rd' })[d % 10] || 'th'}`);
function formatDate(date, fmt) {
  const d = date.getUTCDate(), m = date.getUTCMonth() + 1, y = date.getUTCFullYear();
  const month = MONTHS[m - 1], weekday = WEEKDAYS[date.getUTCDay()];
  const pad = (n) => String(n).padStart(2, '0');
  return [`${d}/${m}/${y}`, `${weekday} ${d} ${month} ${y}`, `the ${d} of ${month}, ${y}`,
          `${weekday.slice(0, 3)}, ${d} ${month.slice(0, 3)} ${y}`, `${ordinal(d)} ${month} ${y}`,
          `${pad(d)} ${pad(m)} ${y}`][fmt];
}
function makeExamples(n, seed) {
  const rand = random(seed), first = Date.UTC(1950, 0, 1), day = 86400000;
  const days = (Date.UTC(2049, 11, 31) - first) / day + 1;
  const examples = [];
  for (let i = 0; i < n; ++i) {
    const date = new Date(first + Math.floor(rand() * days) * day);
    examples.push([formatDate(date, i % 6), date.toISOString().slice(0, 10)]);
  }
  return examples;
}

// One batch as constant tensors, time-major: one-hot sources [S·B, 40], the
// "last real position" mask per step [B, 1], the padding bias [B, S], one-hot
// decoder inputs (start, then the shifted targets) [T·B, 13] and targets [T·B, 13].
function makeBatch(examples) {
  const S = Math.max(...examples.map(([s]) => s.length));
  const src = new Float32Array(S * B * V_IN), last = new Float32Array(S * B), bias = new Float32Array(B * S);
  const decIn = new Float32Array(T_OUT * B * V_OUT), target = new Float32Array(T_OUT * B * V_OUT);
  examples.forEach(([s, t], b) => {
    for (let j = 0; j < S; ++j) {
      const id = j < s.length ? INPUT_CHARS.indexOf(s[j]) + 1 : 0;
      if (j < s.length && id === 0) throw new Error(`bad input character in '${s}'`);
      src[(j * B + b) * V_IN + id] = 1;
      if (j >= s.length) bias[b * S + j] = -1e9;
    }
    last[(s.length - 1) * B + b] = 1;
    for (let k = 0; k < T_OUT; ++k) {
      const out = OUTPUT_CHARS.indexOf(t[k]) + 2;
      target[(k * B + b) * V_OUT + out] = 1;
      decIn[(k * B + b) * V_OUT + (k === 0 ? 1 : OUTPUT_CHARS.indexOf(t[k - 1]) + 2)] = 1;
    }
  });
  const lastMask = tf.tensor3d(last, [S, B, 1]);
  const batch = {
    S, src: tf.tensor2d(src, [S * B, V_IN]), lastSteps: tf.unstack(lastMask), bias: tf.tensor2d(bias, [B, S]),
    decIn: tf.tensor2d(decIn, [T_OUT * B, V_OUT]), target: tf.tensor2d(target, [T_OUT * B, V_OUT]),
    meanLength: examples.reduce((a, [s]) => a + s.length, 0) / examples.length,
  };
  lastMask.dispose();
  return batch;
}

// --- parameters ------------------------------------------------------------------
const rand = random(1);
const uniform = (shape, limit) => {
  const n = shape.reduce((a, b) => a * b, 1), v = new Float32Array(n);
  for (let i = 0; i < n; ++i) v[i] = (2 * rand() - 1) * limit;
  return tf.variable(tf.tensor(v, shape));
};
const glorot = (shape) => uniform(shape, Math.sqrt(6 / (shape[0] + shape[1])));
const zeros = (shape) => tf.variable(tf.zeros(shape));
const p = {
  encEmb: uniform([V_IN, E_IN], 0.05),
  encWih: glorot([E_IN, 3 * H]), encWhh: glorot([H, 3 * H]), encBih: zeros([3 * H]), encBhh: zeros([3 * H]),
  decEmb: uniform([V_OUT, E_OUT], 0.05),
  decWih: glorot([E_OUT + H, 3 * H]), decWhh: glorot([H, 3 * H]), decBih: zeros([3 * H]), decBhh: zeros([3 * H]),
  We: glorot([H, H]), Wd: glorot([H, H]), v: glorot([H, 1]),
  outW: glorot([H, V_OUT]), outB: zeros([V_OUT]),
};
const parameters = Object.values(p).reduce((a, t) => a + t.size, 0);
log(`parameters: ${parameters.toLocaleString('en-US')}`);
if (parameters !== 57437) throw new Error(`expected 57,437 parameters (docs/dataset.md), have ${parameters}`);

// --- the model -------------------------------------------------------------------
// One GRU step in nn.GRU's form; gi = x W_ih + b_ih for this step, [B, 3H].
function gruStep(gi, h, Whh, bhh) {
  const gh = tf.fused.matMul({ a: h, b: Whh, bias: bhh });
  const [xr, xz, xn] = tf.split(gi, 3, 1);
  const [hr, hz, hn] = tf.split(gh, 3, 1);
  const r = tf.sigmoid(tf.add(xr, hr));
  const z = tf.sigmoid(tf.add(xz, hz));
  const n = tf.tanh(tf.add(xn, tf.mul(r, hn)));
  return tf.add(n, tf.mul(z, tf.sub(h, n)));     // (1 - z) n + z h
}

function logits(batch) {
  const { S } = batch;
  // Encoder: the input projections of all steps in one product.
  const x = tf.matMul(batch.src, p.encEmb);                                        // [S·B, 32]
  const gi = tf.unstack(tf.reshape(tf.fused.matMul({ a: x, b: p.encWih, bias: p.encBih }), [S, B, 3 * H]));
  let h = tf.zeros([B, H]), s = tf.zeros([B, H]);
  const states = [];
  for (let j = 0; j < S; ++j) {
    h = gruStep(gi[j], h, p.encWhh, p.encBhh);
    states.push(h);
    s = tf.add(s, tf.mul(h, batch.lastSteps[j]));   // the true last state of each row
  }
  const enc = tf.stack(states, 1);                                                  // [B, S, H]
  const keys = tf.reshape(tf.matMul(tf.reshape(enc, [B * S, H]), p.We), [B, S, H]); // W_e h_j, once
  // Decoder, teacher forcing, additive attention.
  const y = tf.unstack(tf.reshape(tf.matMul(batch.decIn, p.decEmb), [T_OUT, B, E_OUT]));
  const outs = [];
  for (let t = 0; t < T_OUT; ++t) {
    const q = tf.reshape(tf.matMul(s, p.Wd), [B, 1, H]);
    const e = tf.tanh(tf.add(keys, q));                                              // [B, S, H]
    const scores = tf.add(tf.reshape(tf.matMul(tf.reshape(e, [B * S, H]), p.v), [B, S]), batch.bias);
    const alpha = tf.softmax(scores);                                                // [B, S]
    const context = tf.reshape(tf.matMul(tf.reshape(alpha, [B, 1, S]), enc), [B, H]);
    const giDec = tf.fused.matMul({ a: tf.concat([y[t], context], 1), b: p.decWih, bias: p.decBih });
    s = gruStep(giDec, s, p.decWhh, p.decBhh);
    outs.push(s);
  }
  return tf.fused.matMul({ a: tf.concat(outs, 0), b: p.outW, bias: p.outB });       // [T·B, 13], time-major
}

const loss = (batch) => tf.neg(tf.mean(tf.sum(tf.mul(batch.target, tf.logSoftmax(logits(batch))), 1)));

// --- train -------------------------------------------------------------------------
const examples = makeExamples(6000, 1);
const nBatches = 24;                        // distinct batches, cycled (their lengths vary like the epoch's)
const batches = [];
for (let i = 0; i < nBatches; ++i) batches.push(makeBatch(examples.slice(i * B, (i + 1) * B)));
const meanLength = batches.reduce((a, b) => a + b.meanLength, 0) / nBatches;
const meanPadded = batches.reduce((a, b) => a + b.S, 0) / nBatches;
log(`${nBatches} batches of ${B}: mean source length ${meanLength.toFixed(1)}, ` +
    `padded to ${meanPadded.toFixed(1)} on average (the longest in each batch)`);

const optimizer = tf.train.adam(1e-3, 0.9, 0.999, 1e-7);
const trainStep = (batch) => {
  const cost = optimizer.minimize(() => loss(batch), true);
  const value = cost.dataSync()[0];
  cost.dispose();
  return value;
};
const cpuSeconds = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };

let lastLoss = NaN;
const warmup = backend === 'wasm' ? 5 : 2;
for (let i = 0; i < warmup; ++i) lastLoss = trainStep(batches[i % nBatches]);
const tensorsAfterWarmup = tf.memory().numTensors;
let seen = 0, i = 0;
const start = cpuSeconds(), wallStart = performance.now();
while (cpuSeconds() - start < seconds || i < 2) {
  lastLoss = trainStep(batches[i % nBatches]);
  seen += B;
  ++i;
}
const trainCpu = cpuSeconds() - start, trainWall = (performance.now() - wallStart) / 1000;
const trainRate = seen / trainCpu;
if (!Number.isFinite(lastLoss)) throw new Error(`loss is ${lastLoss}`);
if (tf.memory().numTensors !== tensorsAfterWarmup)
  log(`warning: tensors leaked: ${tensorsAfterWarmup} -> ${tf.memory().numTensors}`);

// Inference as pytorch_reference.py measures it: a teacher-forced forward pass of
// a batch of 64 without gradients.
let n = 0;
const inferStart = cpuSeconds();
while (cpuSeconds() - inferStart < seconds / 4 || n < 2) {
  tf.tidy(() => logits(batches[n % nBatches]).dataSync());
  ++n;
}
const inferRate = (n * B) / (cpuSeconds() - inferStart);

const target = backend === 'cpu' ? 'tfjs-cpu' : simd ? 'tfjs-wasm-simd' : 'tfjs-wasm';
const result = {
  model: 'attention', scorer: 'additive', width: H, target,
  train_examples_per_second: trainRate, infer_strings_per_second: inferRate,
  tfjs_version: tf.version_core, backend: tf.getBackend(), wasm_simd: simd, wasm_threads: threadCount,
  wasm_binary: wasmFile, parameters, last_loss: lastLoss, train_cpu_seconds: trainCpu,
  train_wall_seconds: trainWall, train_steps: i, mean_source_length: meanLength, mean_padded_length: meanPadded,
};
if (json) console.log(JSON.stringify(result));
else {
  console.log(`TensorFlow.js ${tf.version_core} ${target}, 1 thread, attention (additive), width ${H}, batch ${B}: ` +
              `${trainRate.toFixed(0)} training examples/s (${i} steps, ${trainCpu.toFixed(1)} s CPU, ` +
              `${trainWall.toFixed(1)} s wall), ${inferRate.toFixed(0)} strings/s forward (loss ${lastLoss.toFixed(3)})`);
  console.log(JSON.stringify({ target, train_examples_per_second: trainRate }));
}

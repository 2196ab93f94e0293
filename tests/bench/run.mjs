#!/usr/bin/env node
// tests/bench/run.mjs — the benchmark runner behind `./build_wasm.sh bench`.
//
// Runs `lookback bench --json` on the three targets built from the same source
// (native, WASM with SIMD and WASM without, both under node), then the PyTorch
// reference (tests/bench/pytorch_reference.py) and the TensorFlow.js reference
// (tests/bench/tfjs_reference.mjs: wasm backend with SIMD, one thread; with
// --tfjs-cpu also its plain JavaScript backend) in the same session, merges
// everything into one JSON document and prints a table of the figures and the
// ratios BENCHMARKS.md's goals are stated in (or, with --json, the merged JSON).
//
//   node tests/bench/run.mjs [--json] [--seconds S] [--widths 8,16,32,64] [--no-pytorch]
//        [--no-tfjs] [--tfjs-cpu] [--out build/bench/results.json]
//        [--task dates|reversal|translation] [--models plain,additive,...]
//
// --task trains every target and PyTorch on that task's training split (the date
// task by default; the PyTorch reference reads the split from the native build's
// `lookback bench --write-split`); TensorFlow.js has the date task only and is
// skipped for another. --models is passed to `lookback bench`; the PyTorch
// references run for the additive attention model, and for plain and the
// Transformer when they are among the models.
//
// TensorFlow.js is installed on first use into build/bench-node (git-ignored),
// never into the project's package.json.
//   LOOKBACK_BENCH_BUILDS=native:build/native,wasm-simd:build/wasm,wasm-scalar:build/wasm-scalar
//
// Each target runs after the previous one finished (never two at once), and
// every figure is CPU time of its own process, so other jobs on a shared
// machine disturb the ratios as little as possible.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import os from 'node:os';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

// --- options -----------------------------------------------------------------
const args = process.argv.slice(2);
let json = false, seconds = '1', widths = '8,16,32,64', pytorch = true, tfjs = true, tfjsCpu = false, out = join(root, 'build/bench/results.json');
let task = 'dates', models = null;
for (let i = 0; i < args.length; ++i) {
  const a = args[i];
  if (a === '--json') json = true;
  else if (a === '--no-pytorch') pytorch = false;
  else if (a === '--no-tfjs') tfjs = false;
  else if (a === '--tfjs-cpu') tfjsCpu = true;
  else if (a === '--seconds' && i + 1 < args.length) seconds = args[++i];
  else if (a === '--widths' && i + 1 < args.length) widths = args[++i];
  else if (a === '--out' && i + 1 < args.length) out = resolve(args[++i]);
  else if (a === '--task' && i + 1 < args.length) task = args[++i];
  else if (a === '--models' && i + 1 < args.length) models = args[++i];
  else {
    console.error(`run.mjs: unknown option '${a}'\nusage: node tests/bench/run.mjs [--json] [--seconds S] [--widths 8,16,32,64] [--no-pytorch] [--no-tfjs] [--tfjs-cpu] [--out FILE] [--task dates|reversal|translation] [--models LIST]`);
    process.exit(2);
  }
}
const builds = (process.env.LOOKBACK_BENCH_BUILDS ||
                'native:build/native,wasm-simd:build/wasm,wasm-scalar:build/wasm-scalar')
  .split(',').map((entry) => { const [target, dir] = entry.split(':'); return { target, dir: resolve(root, dir) }; });

const log = (message) => { if (!json) console.log(message); else console.error(message); };
const benchArgs = ['bench', '--json', '--task', task, '--seconds', seconds, '--widths', widths,
                   ...(models ? ['--models', models] : [])];
// The models lookback bench runs when --models is not given (cli/commands.h's BenchArgs).
const modelNames = (models ?? 'plain,dot,general,additive,transformer,transformer-first').split(',');

// --- run the targets ---------------------------------------------------------
function runTarget({ target, dir }, argsForBench = benchArgs) {
  let command, commandArgs;
  if (target === 'native') {
    command = join(dir, 'lookback');
    commandArgs = argsForBench;
  } else {
    command = process.execPath;  // node 20 loads an emcc-built module's wasm only without fetch
    commandArgs = ['--no-experimental-fetch', join(dir, 'lookback.js'), ...argsForBench];
  }
  const program = target === 'native' ? command : commandArgs[1];
  if (!existsSync(program)) throw new Error(`${program} is missing: build it first (./build_wasm.sh bench does)`);
  log(`==> ${target}: ${[command, ...commandArgs].join(' ')}`);
  const started = Date.now();
  const result = spawnSync(command, commandArgs, { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (result.status !== 0) throw new Error(`${target} bench failed (exit ${result.status}):\n${result.stderr}`);
  const parsed = JSON.parse(result.stdout.trim().split('\n').pop());
  log(`    ${((Date.now() - started) / 1000).toFixed(0)} s, ${parsed.results.length} model figures`);
  return parsed;
}

function runPytorch(decoder = 'attention') {
  const script = join(root, 'tests/bench/pytorch_reference.py');
  const python = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
  const probe = spawnSync(python, ['-c', 'import torch'], { encoding: 'utf8' });
  if (probe.status !== 0) {
    log('==> PyTorch: not installed (Debian: apt-get install python3-torch); skipped');
    return null;
  }
  const pySeconds = String(Math.max(5, 10 * Number(seconds)));
  // the native build writes the task's split and counts the core's parameters for the script
  const native = builds.find((b) => b.target === 'native');
  const lookback = join(native ? native.dir : join(root, 'build/native'), 'lookback');
  const pyArgs = [script, '--task', task, '--decoder', decoder, '--json', '--seconds', pySeconds, '--lookback', lookback];
  log(`==> PyTorch reference: ${python} ${pyArgs.join(' ')}`);
  const result = spawnSync(python, pyArgs, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`PyTorch reference failed:\n${result.stderr}`);
  return JSON.parse(result.stdout.trim().split('\n').pop());
}

// TensorFlow.js 4.22 in a folder of its own (build/bench-node, git-ignored): the
// umbrella package for its gradient registrations, core and the wasm backend.
const tfjsDir = join(root, 'build/bench-node');
const tfjsPackages = ['@tensorflow/tfjs@4.22.0', '@tensorflow/tfjs-core@4.22.0', '@tensorflow/tfjs-backend-wasm@4.22.0'];
function installTfjs() {
  const installed = ['tfjs', 'tfjs-core', 'tfjs-backend-wasm'].every((p) =>
    existsSync(join(tfjsDir, 'node_modules/@tensorflow', p, 'package.json')));
  if (installed) return true;
  log(`==> TensorFlow.js: npm install --prefix ${tfjsDir} ${tfjsPackages.join(' ')}`);
  mkdirSync(tfjsDir, { recursive: true });
  const npm = spawnSync('npm', ['install', '--prefix', tfjsDir, '--no-save', '--no-audit', '--no-fund', ...tfjsPackages],
                        { encoding: 'utf8' });
  if (npm.status !== 0) {
    log(`==> TensorFlow.js: npm install failed (exit ${npm.status}); skipped\n${npm.stderr}`);
    return false;
  }
  return true;
}

function runTfjs(backend) {
  const script = join(root, 'tests/bench/tfjs_reference.mjs');
  const jsSeconds = String(Math.max(5, 10 * Number(seconds)));
  log(`==> TensorFlow.js reference (${backend}): node ${script} --backend ${backend} --json --seconds ${jsSeconds}`);
  const result = spawnSync(process.execPath, [script, '--backend', backend, '--json', '--seconds', jsSeconds],
                           { encoding: 'utf8', env: { ...process.env, LOOKBACK_TFJS_DIR: tfjsDir } });
  if (result.status !== 0) throw new Error(`TensorFlow.js reference (${backend}) failed:\n${result.stderr}`);
  const parsed = JSON.parse(result.stdout.trim().split('\n').pop());
  log(`    ${parsed.target}: ${parsed.train_examples_per_second.toFixed(0)} training ex/s`);
  return parsed;
}

function machine() {
  let lscpu = '';
  try { lscpu = execFileSync('lscpu', { encoding: 'utf8' }); } catch { /* not Linux */ }
  const field = (name) => (lscpu.match(new RegExp(`^${name}:\\s*(.+)$`, 'm')) || [])[1];
  return {
    cpu: field('Model name') || os.cpus()[0]?.model,
    cpus: Number(field('CPU\\(s\\)')) || os.cpus().length,
    l1d: field('L1d cache'), l2: field('L2 cache'),
    avx512: /avx512f/.test(lscpu), node: process.version,
    load_average: os.loadavg().map((x) => Number(x.toFixed(2))),
  };
}

// --- merge and compare ---------------------------------------------------------
// A row is named by its model, scorer and (Transformer) memory: plain and the
// Transformer both have the scorer "none".
const kind = (r) => `${r.model}/${r.scorer}/${r.memory ?? ''}`;
const find = (results, target, row, width) =>
  results.find((r) => r.target === target && kind(r) === kind(row) && r.width === width);
const additive = { model: 'attention', scorer: 'additive' };
const plain = { model: 'plain', scorer: 'none' };
const transformerAll = { model: 'transformer', scorer: 'none', memory: 'all' };

function ratios(results, reference, tfjsReference, transformerReference, plainReference) {
  const r = {};
  const nativePlain = find(results, 'native', plain, 64);
  const simdPlain = find(results, 'wasm-simd', plain, 64);
  if (plainReference && nativePlain)
    r.plain_native_over_pytorch = nativePlain.train_examples_per_second / plainReference.train_examples_per_second;
  if (plainReference && simdPlain)
    r.plain_wasm_simd_over_pytorch = simdPlain.train_examples_per_second / plainReference.train_examples_per_second;
  const nativeAdd = find(results, 'native', additive, 64);
  const simdAdd = find(results, 'wasm-simd', additive, 64);
  if (reference && nativeAdd) r.native_over_pytorch = nativeAdd.train_examples_per_second / reference.train_examples_per_second;
  if (reference && simdAdd) r.wasm_simd_over_pytorch = simdAdd.train_examples_per_second / reference.train_examples_per_second;
  if (simdAdd) r.wasm_simd_examples_per_second = simdAdd.train_examples_per_second;
  if (tfjsReference && simdAdd)
    r.wasm_simd_over_tfjs_wasm = simdAdd.train_examples_per_second / tfjsReference.train_examples_per_second;
  const nativeTransformer = find(results, 'native', transformerAll, 64);
  const simdTransformer = find(results, 'wasm-simd', transformerAll, 64);
  if (transformerReference && nativeTransformer)
    r.transformer_native_over_pytorch = nativeTransformer.train_examples_per_second / transformerReference.train_examples_per_second;
  if (transformerReference && simdTransformer)
    r.transformer_wasm_simd_over_pytorch = simdTransformer.train_examples_per_second / transformerReference.train_examples_per_second;

  // SIMD over scalar WASM, training, for every model × width both ran.
  const simdOverScalar = [];
  for (const s of results.filter((x) => x.target === 'wasm-simd')) {
    const scalar = find(results, 'wasm-scalar', s, s.width);
    if (scalar) simdOverScalar.push({ model: s.model, scorer: s.scorer, memory: s.memory, width: s.width,
                                      ratio: s.train_examples_per_second / scalar.train_examples_per_second });
  }
  if (simdOverScalar.length) {
    r.wasm_simd_over_scalar = simdOverScalar;
    const at64 = simdOverScalar.find((x) => x.scorer === 'additive' && x.width === 64);
    if (at64) r.wasm_simd_over_scalar_additive_64 = at64.ratio;
  }
  return r;
}

const goals = [
  ['native >= 10x PyTorch (attention, additive, H=64)', (r) => r.native_over_pytorch, 10, 'x'],
  ['wasm-simd >= 2,700 examples/s', (r) => r.wasm_simd_examples_per_second, 2700, ' ex/s'],
  ['wasm-simd >= 10x TF.js wasm+SIMD (same run)', (r) => r.wasm_simd_over_tfjs_wasm, 10, 'x'],
  ['wasm-simd >= 3x PyTorch', (r) => r.wasm_simd_over_pytorch, 3, 'x'],
  ['plain native >= 10x PyTorch (H=64)', (r) => r.plain_native_over_pytorch, 10, 'x'],
  ['plain wasm-simd >= 3x PyTorch (H=64)', (r) => r.plain_wasm_simd_over_pytorch, 3, 'x'],
  ['Transformer (all) native >= 10x PyTorch (H=64)', (r) => r.transformer_native_over_pytorch, 10, 'x'],
  ['Transformer (all) wasm-simd >= 3x PyTorch (H=64)', (r) => r.transformer_wasm_simd_over_pytorch, 3, 'x'],
  ['wasm-simd >= 2.5x wasm-scalar (additive, H=64)', (r) => r.wasm_simd_over_scalar_additive_64, 2.5, 'x'],
  ['WASM linear memory while training at H=64 <= 32 MB', (r) => r.wasm_memory_mb_width64, 32, ' MB', true],
  ['WASM malloc heap while training at H=64 <= 32 MB', (r) => r.wasm_heap_mb_width64, 32, ' MB', true],
];

function printTable(merged) {
  const rows = merged.results;
  console.log('\nmodel      scorer    width  target        train ex/s  infer str/s  GFLOP/s  mem MB');
  for (const r of rows)
    console.log(`${r.model.padEnd(10)} ${(r.memory ?? r.scorer).padEnd(9)} ${String(r.width).padStart(5)}  ` +
                `${r.target.padEnd(12)} ${r.train_examples_per_second.toFixed(0).padStart(11)} ` +
                `${r.infer_strings_per_second.toFixed(0).padStart(12)} ${r.gflops.toFixed(1).padStart(8)} ` +
                `${(r.memory_mb ?? 0).toFixed(1).padStart(7)}`);
  console.log('\nkernels (GFLOP/s):');
  const targets = Object.keys(merged.kernels);
  console.log(`${'product'.padEnd(36)} ${'M x N x K'.padStart(16)} ${targets.map((t) => t.padStart(12)).join('')}`);
  const first = merged.kernels[targets[0]] || [];
  first.forEach((k, i) => {
    console.log(`${k.what.padEnd(36)} ${`${k.M} x ${k.N} x ${k.K}`.padStart(16)} ` +
                targets.map((t) => (merged.kernels[t][i]?.gflops ?? NaN).toFixed(1).padStart(12)).join(''));
  });
  console.log(`\ntask: ${merged.task}`);
  if (merged.reference)
    console.log(`PyTorch ${merged.reference.torch_version}, 1 thread, additive attention, H=64: ` +
                `${merged.reference.train_examples_per_second.toFixed(0)} training ex/s`);
  if (merged.plain_reference)
    console.log(`PyTorch ${merged.plain_reference.torch_version}, 1 thread, plain, H=64: ` +
                `${merged.plain_reference.train_examples_per_second.toFixed(0)} training ex/s`);
  if (merged.transformer_reference)
    console.log(`PyTorch ${merged.transformer_reference.torch_version}, 1 thread, Transformer (all), H=64 ` +
                `(${merged.transformer_reference.parameters} parameters): ` +
                `${merged.transformer_reference.train_examples_per_second.toFixed(0)} training ex/s`);
  for (const t of merged.tfjs_references || [])
    console.log(`TensorFlow.js ${t.tfjs_version} ${t.target} (${t.backend === 'wasm' ? `SIMD ${t.wasm_simd}, ` : 'plain JS, '}1 thread), ` +
                `additive attention, H=64: ${t.train_examples_per_second.toFixed(0)} training ex/s`);
  console.log('\ngoals:');
  for (const [name, get, target, unit, atMost] of goals) {
    const value = get(merged.ratios);
    if (value === undefined) { console.log(`  ${name}: not measured`); continue; }
    const met = atMost ? value <= target : value >= target;
    console.log(`  ${met ? 'met    ' : 'NOT met'} ${name}: ${value.toFixed(value < 100 ? 2 : 0)}${unit}`);
  }
}

try {
  const merged = { machine: machine(), task, seconds_per_figure: Number(seconds), results: [], kernels: {} };
  for (const build of builds) {
    const r = runTarget(build);
    merged.results.push(...r.results);
    merged.kernels[r.target] = r.kernels;
  }
  // WASM memory while training at width 64, in a process of its own so that no
  // other model's buffers count: linear memory (what the page holds) and heap.
  const simdBuild = builds.find((b) => b.target === 'wasm-simd');
  if (simdBuild) {
    const alone = runTarget(simdBuild, ['bench', '--json', '--task', task, '--no-kernels', '--models', 'additive',
                                        '--widths', '64', '--seconds', '0.5']);
    merged.wasm_memory_training_width64 = { memory_mb: alone.results[0].memory_mb, heap_mb: alone.results[0].heap_mb };
  }
  merged.reference = pytorch ? runPytorch() : null;
  merged.plain_reference = merged.reference && modelNames.includes('plain') ? runPytorch('plain') : null;
  merged.transformer_reference = merged.reference && modelNames.includes('transformer') ? runPytorch('transformer') : null;
  merged.tfjs_references = [];
  if (tfjs && task !== 'dates') log(`==> TensorFlow.js reference: the date task only; skipped for ${task}`);
  else if (tfjs && installTfjs()) {
    merged.tfjs_references.push(runTfjs('wasm'));
    if (tfjsCpu) merged.tfjs_references.push(runTfjs('cpu'));
  }
  merged.tfjs_reference = merged.tfjs_references.find((t) => t.backend === 'wasm') || null;
  merged.ratios = ratios(merged.results, merged.reference, merged.tfjs_reference, merged.transformer_reference,
                        merged.plain_reference);
  if (merged.wasm_memory_training_width64) {
    merged.ratios.wasm_memory_mb_width64 = merged.wasm_memory_training_width64.memory_mb;
    merged.ratios.wasm_heap_mb_width64 = merged.wasm_memory_training_width64.heap_mb;
  }
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, JSON.stringify(merged, null, 1) + '\n');
  if (json) console.log(JSON.stringify(merged));
  else { printTable(merged); console.log(`\nwritten: ${out}`); }
} catch (e) {
  console.error(`run.mjs: ${e.message}`);
  process.exit(1);
}

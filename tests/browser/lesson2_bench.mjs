// tests/browser/lesson2_bench.mjs — how fast the page trains (figure "training"), against the same
// WebAssembly core under node. A program, not a test:
//
//   node tests/browser/lesson2_bench.mjs [--site build/site] [--cli build/wasm/lookback.js]
//                                        [--width 64] [--seconds 20]
//
// Node: `lookback train --epochs 1` for each model prints its training examples/s. Page: Train is
// clicked in headless Chromium and, over --seconds, the page counts its animation frames and the
// figure reports each model's examples/s while it is working (busy) and both models' examples
// per wall-clock second (what the reader gets, the frames' other work included).
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { clickWidget, framesPerSecond, launch, openWatched, rect, root, serve, state, until } from './helpers.mjs';

const option = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const site = path.resolve(option('site', path.join(root, 'build/site')));
const cli = path.resolve(option('cli', path.join(root, 'build/wasm/lookback.js')));
const width = Number(option('width', 64));
const seconds = Number(option('seconds', 20));

function nodeExamplesPerSecond(model) {
  const out = execFileSync(process.execPath, ['--no-experimental-fetch', cli, 'train', '--model', model, '--width', String(width), '--epochs', '1'],
                           { encoding: 'utf8' });
  const found = out.match(/\(([\d.]+) examples\/s\)/);
  if (!found) throw new Error(`no examples/s in:\n${out}`);
  return Number(found[1]);
}

const node = { plain: nodeExamplesPerSecond('plain'), attention: nodeExamplesPerSecond('attention') };
// Both models, one example each, back to back: the pair's rate in examples/s.
const nodePair = 2 / (1 / node.plain + 1 / node.attention);

const server = await serve(site);
const browser = await launch();
const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
const { page } = await openWatched(context, `${server.url}?tr.width=${width}`);
await page.locator('canvas[data-figure="training"]').scrollIntoViewIfNeeded();
await until('the training figure', async () => (await rect(page, 'training', 'train')) !== null, 30000);
await until('the shipped models to be evaluated', async () => (await state(page, 'sweep')).shipped.attention !== undefined, 60000);
await clickWidget(page, 'training', 'train');
await until('training to start', async () => (await state(page, 'training')).runs[1].steps >= 1, 30000);
const before = await state(page, 'training');
const fps = await framesPerSecond(page, seconds * 1000);
const after = await state(page, 'training');
await browser.close();
server.close();

const examples = (s) => s.runs[0].examples + s.runs[1].examples;
const wall = (examples(after) - examples(before)) / (after.wall_seconds - before.wall_seconds);
const busy = { plain: after.runs[0].busy_examples_per_second, attention: after.runs[1].busy_examples_per_second };
const line = (label, value, of) => console.log(`${label.padEnd(44)} ${value.toFixed(0).padStart(7)}${of ? `   ${(100 * value / of).toFixed(0)}% of node` : ''}`);
console.log(`width ${width}, ${seconds} s of training in the page`);
console.log(`frames per second while training               ${fps.toFixed(1)}`);
console.log(`frame budget / work per frame (ms)             ${after.budget_ms.toFixed(1)} / ${after.work_ms.toFixed(1)}`);
line('node: plain examples/s', node.plain);
line('node: attention examples/s', node.attention);
line('page, busy: plain examples/s', busy.plain, node.plain);
line('page, busy: attention examples/s', busy.attention, node.attention);
line('node: both models, examples/s', nodePair);
line('page, wall clock: both models, examples/s', wall, nodePair);

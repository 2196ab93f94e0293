// tests/engines/train_bench.mjs — the same training run in Chromium, Firefox and WebKit, side by
// side (BENCHMARKS.md, "Three engines"): the training figure's pair at width 8 for one epoch
// (?tr.width=8&tr.epochs=1, the smoke set's run), Train pressed, the examples per second the
// figure reports once the epoch is done; and a typed date decoded on the alignment map (Enter to
// the new map in the figure's state). Each engine in turn, alone on the machine, REPEAT times
// (default 3), a fresh browser each time.
//
//   node tests/engines/train_bench.mjs [chromium,firefox,webkit] [--repeat N] [--reader]
//
// Train is pressed as soon as it is there; with --reader, as a reader presses it: after the
// figure has been on screen long enough for the workers' warm-up (web/worker/engine.js) to end.
//
// Serves LOOKBACK_SITE (default build/site). Chromium as the browser suite runs it (headless,
// SwiftShader); Firefox and WebKit as the smoke set does (windows on Xvfb).
import os from 'node:os';
import { chromium } from 'playwright-core';
import { firefox, serveLogged, site, startXvfb, until, webkit } from './helpers.mjs';

const args = process.argv.slice(2);
const repeat = Number(args[args.indexOf('--repeat') + 1] || 3);
const reader = args.includes('--reader');
const engines = (args.find((a) => !a.startsWith('--') && !/^\d+$/.test(a)) ?? 'chromium,firefox,webkit').split(',');

// Chromium through playwright-core, with the same verbs as helpers.mjs's drivers.
async function chromiumDriver() {
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--disable-background-networking'],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  return {
    engine: 'Chromium',
    version: browser.version(),
    goto: (url) => page.goto(url),
    run: (fn) => page.evaluate(fn),
    type: (text) => page.keyboard.type(text),
    press: (key) => page.keyboard.press(key),
    close: () => browser.close(),
  };
}

function pressTrain() {
  const canvas = document.querySelector('canvas[data-figure="training"]');
  canvas.scrollIntoView({ block: 'center' });
  const button = [...(canvas.previousElementSibling?.querySelectorAll('button') ?? [])].find((b) => b.textContent === 'Train');
  button?.click();
  return Boolean(button);
}
function focusDateField() {
  const canvas = document.querySelector('canvas[data-figure="alignment"]');
  canvas.scrollIntoView({ block: 'center' });
  const field = canvas.previousElementSibling?.querySelector('input[aria-label="a date to map"]');
  if (!field || window.lookback.state('alignment').output === '') return false;
  field.focus();
  field.select();
  return true;
}

async function once(name, server, display) {
  const driver = name === 'chromium' ? await chromiumDriver() : await (name === 'firefox' ? firefox : webkit)(display);
  try {
    await driver.goto(`${server.url}?tr.width=8&tr.epochs=1`);
    await until('the module', () => driver.run(() => window.lookback !== undefined), 30000);
    if (reader) {
      await driver.run(() => document.querySelector('canvas[data-figure="training"]').scrollIntoView({ block: 'center' }));
      await until('the workers warmed', () => driver.run(() => {
        const t = window.lookback.training();
        return t.workers > 0 && t.workersWarmed === t.workers;
      }), 60000, 100);
    }
    await until('Train', () => driver.run(pressTrain), 30000);
    await until('an epoch', () => driver.run(() => window.lookback.state('training').runs.every((r) => r.epochs.length >= 1)), 600000, 250);
    const s = await driver.run(() => window.lookback.state('training'));
    const placed = await driver.run(() => window.lookback.training());
    await until('the date field', () => driver.run(focusDateField), 60000);
    await driver.type('The 4 of August, 2003');
    const from = Date.now();
    await driver.press('Enter');
    await until('the decoded date', () => driver.run(() => window.lookback.state('alignment').output === '2003-08-04'), 60000, 5);
    return { engine: driver.engine, version: driver.version, examplesPerSecond: s.examples_per_second,
      seconds: s.wall_seconds, workers: placed.workers, reported: placed.reportedCores, counted: placed.cores, size: placed.size, decodeMs: Date.now() - from };
  } finally {
    await driver.close();
  }
}

const xvfb = engines.some((e) => e !== 'chromium') ? await startXvfb() : null;
const server = await serveLogged(site);
try {
  console.log(`${os.cpus().length} × ${os.cpus()[0].model}, node ${process.version}, site ${site}; ` +
              (reader ? 'Train pressed once the workers have warmed up' : 'Train pressed at once'));
  for (const name of engines) {
    const rows = [];
    for (let i = 0; i < repeat; i++) rows.push(await once(name, server, xvfb?.display));
    const rates = rows.map((r) => Math.round(r.examplesPerSecond)).sort((a, b) => a - b);
    const decodes = rows.map((r) => r.decodeMs).sort((a, b) => a - b);
    const r = rows[0];
    console.log(`${r.engine} ${r.version}: ${rates.join(', ')} examples/s (median ${rates[rates.length >> 1]}), ` +
      `${r.workers} of ${r.size} workers (cores: ${r.reported} said, ${r.counted ?? 'not'} counted); a typed date decoded in ${decodes.join(', ')} ms`);
  }
} finally {
  await server.close();
  await xvfb?.close();
}

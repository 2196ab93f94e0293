// tests/browser/mirror_bench.mjs — what the figures' controls mirror costs (web/page/mirror.js,
// web/runtime/controls.h). A program, not a test:
//
//   node tests/browser/mirror_bench.mjs [--site build/site] [--seconds 3] [--rounds 3]
//
// While the training figure trains both models, it measures the page's frames per second and the
// main thread's busy time per frame (Chromium's TaskDuration over the frames drawn), with the
// figures describing their controls and without (window.lookback.describeControls(false)), in
// alternating rounds so that a change in the machine's load does not decide the ratio.
import { framesPerSecond, launch, serve, state, until } from './helpers.mjs';

const option = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const seconds = Number(option('seconds', 3)), rounds = Number(option('rounds', 3));
const { url, close } = await serve(option('site', undefined));
const browser = await launch();
const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
const cdp = await page.context().newCDPSession(page);
await cdp.send('Performance.enable');
const busy = async () => {
  const { metrics } = await cdp.send('Performance.getMetrics');
  return metrics.find((m) => m.name === 'TaskDuration').value;
};

// Frames/s and main-thread ms per frame over `ms`, describing or not.
async function measure(describing, ms, name) {
  await page.evaluate((on) => window.lookback.describeControls(on), describing);
  await page.waitForTimeout(200);
  const frames0 = await page.evaluate((n) => window.lookback.frames(n), name);
  const busy0 = await busy();
  const fps = await framesPerSecond(page, ms);
  const drawn = (await page.evaluate((n) => window.lookback.frames(n), name)) - frames0;
  return { fps, msPerFrame: ((await busy()) - busy0) * 1000 / Math.max(1, drawn) };
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

await page.goto(`${url}?tr.epochs=30#figure-3`);
await until('the training figure', () => page.evaluate(() => window.lookback?.frames('training') > 2), 30000);
await page.getByRole('group', { name: /^Figure 3/ }).getByRole('button', { name: 'Train' }).focus();
await page.keyboard.press('Enter');
await until('training to start', async () => (await state(page, 'training')).running, 20000);
const results = { on: [], off: [] };
for (let r = 0; r < rounds; r++) {
  for (const on of [true, false]) results[on ? 'on' : 'off'].push(await measure(on, seconds * 1000, 'training'));
}
await page.evaluate(() => window.lookback.describeControls(true));
const line = (k) => `${k === 'on' ? 'with the mirror   ' : 'without the mirror'}: ` +
  `${median(results[k].map((x) => x.fps)).toFixed(1)} frames/s, ` +
  `${median(results[k].map((x) => x.msPerFrame)).toFixed(2)} ms of main thread per training-figure frame`;
console.log(`training both models (${rounds} alternating rounds of ${seconds} s, medians):`);
console.log(line('on'));
console.log(line('off'));
const rounds_of = (k) => results[k].map((x) => `${x.fps.toFixed(1)}/${x.msPerFrame.toFixed(2)}`).join('  ');
console.log(`each round (frames/s / ms): with ${rounds_of('on')}; without ${rounds_of('off')}`);
await browser.close();
close();

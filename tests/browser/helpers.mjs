// tests/browser/helpers.mjs — what the browser tests share: a server for a site folder and
// Debian's Chromium through playwright-core (both set up per test file by useBrowser), a watch on
// everything a page logs and requests, and helpers that read the figures through
// window.lookback and click their widgets' real pixels.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, afterEach, before } from 'node:test';
import { chromium } from 'playwright-core';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
// LOOKBACK_SITE: another build of the site (a copy of one's own while others build theirs).
export const site = process.env.LOOKBACK_SITE || path.join(root, 'build/site');
export const screenshots = path.join(root, 'build/screenshots');

// Chromium's flags: software WebGL (SwiftShader), and no calls home on a closed network.
const chromiumFlags = [
  '--no-sandbox', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
  '--no-first-run', '--disable-quic',
];

// Serves `folder` with web/page/serve.mjs on a free port. Returns { url, close }.
export async function serve(folder = site) {
  if (!fs.existsSync(path.join(folder, 'index.html')) && folder === site) {
    throw new Error('build/site is missing: run ./build_wasm.sh first');
  }
  const server = spawn(process.execPath, [path.join(root, 'web/page/serve.mjs'), folder], {
    env: { ...process.env, PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise((resolve, reject) => {
    let text = '';
    server.stdout.on('data', (chunk) => {
      text += chunk;
      const found = text.match(/http:\/\/127\.0\.0\.1:\d+\//);
      if (found) resolve(found[0]);
    });
    server.on('exit', (code) => reject(new Error(`serve.mjs exited with ${code}`)));
  });
  process.on('exit', () => server.kill());  // also when a test ends before its after() hook
  return { url, close: () => server.kill() };
}

// The site plus the test pages of tests/browser/fixtures/ beside its index.html, in a temporary
// folder: the fixtures are served only to tests.
function siteWithFixtures() {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'lookback-site-'));
  fs.cpSync(site, folder, { recursive: true });
  for (const file of fs.readdirSync(path.join(root, 'tests/browser/fixtures')).filter((f) => f.endsWith('.html'))) {
    fs.cpSync(path.join(root, 'tests/browser/fixtures', file), path.join(folder, file));
  }
  // The runtime's fixture module (built beside the page's, never part of the site).
  for (const file of ['lookback_fixtures.js', 'lookback_fixtures.wasm']) {
    fs.cpSync(path.join(root, 'build/wasm', file), path.join(folder, file));
  }
  return { folder, remove: () => fs.rmSync(folder, { recursive: true, force: true }) };
}

export function launch() {
  return chromium.launch({ executablePath: '/usr/bin/chromium', args: chromiumFlags });
}
// The same browser as a server, whose process (and so its children's memory) a benchmark can read.
export async function launchServer() {
  const server = await chromium.launchServer({ executablePath: '/usr/bin/chromium', args: chromiumFlags });
  return { server, browser: await chromium.connect(server.wsEndpoint()) };
}

// A test file's before and after: serves `folder` (build/site unless given; with `fixtures`, the
// site plus the fixture pages, see siteWithFixtures) and launches Chromium, then closes both.
// Returns { url, browser }, filled in once the before hook has run:
//
//     const env = useBrowser();
//     test('…', async () => { const context = await env.browser.newContext(); … env.url … });
// `ownContexts`: each test opens its own contexts, and every one still open when a test ends is
// closed then, passed or failed. A test that failed before its own close would otherwise leave
// its page running (a training pair in two workers, say) under the tests after it, which then
// time out on a machine the leak keeps busy.
export function useBrowser({ folder, fixtures = false, ownContexts = false } = {}) {
  const env = { url: undefined, browser: undefined };
  let copy, server;
  before(async () => {
    if (fixtures) copy = siteWithFixtures();
    server = await serve(copy ? copy.folder : folder);
    env.url = server.url;
    env.browser = await launch();
  });
  if (ownContexts)
    afterEach(async () => {
      for (const context of env.browser?.contexts() ?? []) await context.close();
    });
  after(async () => {
    await env.browser?.close();
    server?.close();
    copy?.remove();
  });
  return env;
}

// Opens `url` in a new page of `context` and records every console error, page error, failed
// request and request to another origin (those are also refused).
export async function openWatched(context, url) {
  const page = await context.newPage();
  const problems = [];
  const origin = new URL(url).origin;
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`HTTP ${response.status()}: ${response.url()}`);
  });
  await page.route('**/*', (route) => {
    const requested = route.request().url();
    if (requested.startsWith('data:') || new URL(requested).origin === origin) return route.continue();
    problems.push(`request outside the page's origin: ${requested}`);
    return route.abort();
  });
  await page.goto(url);
  // The runtime is up when window.lookback exists; an error before that ends the wait at once.
  await until('window.lookback', async () => {
    if (problems.length) throw new Error(`the page failed before its figures started:\n${problems.join('\n')}`);
    return page.evaluate(() => window.lookback !== undefined);
  }, 15000);
  return { page, problems };
}

export const frames = (page, name) => page.evaluate((n) => window.lookback.frames(n), name);
export const state = (page, name) => page.evaluate((n) => window.lookback.state(n), name);
export const rect = (page, name, widget) => page.evaluate(([n, w]) => window.lookback.rect(n, w), [name, widget]);

// Animation frames per second over `ms`, counted by the page itself.
export const framesPerSecond = (page, ms) => page.evaluate((duration) => new Promise((resolve) => {
  let frames = 0;
  const start = performance.now();
  const tick = (now) => {
    frames++;
    if (now - start < duration) requestAnimationFrame(tick);
    else resolve((frames * 1000) / (now - start));
  };
  requestAnimationFrame(tick);
}), ms);

// Waits until `predicate(page)` holds, polling; fails with `what` after `timeout` ms.
export async function until(what, predicate, timeout = 5000) {
  const end = Date.now() + timeout;
  for (;;) {
    if (await predicate()) return;
    // The machine's load goes with the message: a wait that only load outlasts reads apart from a
    // state never reached.
    if (Date.now() > end) throw new Error(`timed out waiting for ${what} (${timeout} ms; load average ${os.loadavg()[0].toFixed(1)})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

// Waits until a figure has drawn and then stopped (no new frame for `quiet` ms).
export async function settled(page, name, quiet = 250) {
  await until(`${name} to draw`, async () => (await frames(page, name)) > 0, 10000);
  let last = -1;
  await until(`${name} to settle`, async () => {
    const now = await frames(page, name);
    const done = now === last;
    last = now;
    if (!done) await new Promise((resolve) => setTimeout(resolve, quiet));
    return done;
  }, 10000);
}

// Clicks the centre of a widget of a figure, by the rectangle its C++ code recorded.
// A widget outside the viewport (a figure taller than it) is scrolled to first, as a reader would.
export async function clickWidget(page, name, widget) {
  let r = await rect(page, name, widget);
  if (!r) throw new Error(`${name} recorded no rectangle for ${widget}`);
  const height = page.viewportSize().height;
  if (r.y < 0 || r.y + r.height > height) {
    // After a painted frame: a section with content-visibility: auto that was far away takes
    // no clicks until the browser has rendered it again, as a reader sees it only then.
    await page.evaluate((dy) => new Promise((resolve) => {
      window.scrollBy(0, dy);
      requestAnimationFrame(() => requestAnimationFrame(resolve));
    }), r.y - height / 3);
    r = await rect(page, name, widget);
  }
  await page.mouse.click(r.x + r.width / 2, r.y + r.height / 2);
  return r;
}

// Types `text` into a figure's text field as a reader does: a click, then, once the field has
// taken it (until then a space would scroll the page: the runtime keeps the keys' default action
// while no text field is active), everything selected, replaced and submitted with Enter.
export async function typeIntoField(page, name, widget, text) {
  const drawn = await frames(page, name);
  await clickWidget(page, name, widget);
  await until('the field to take the click', async () => (await frames(page, name)) >= drawn + 3, 10000);
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

// In the page: whether it has finished what it loads by itself (assets/shipped.json, every model it
// lists, loaded or refused, and the check of the lesson's pair in the workers), and, once it has,
// the shipped models it could not load ([] when all loaded). A reload before then cancels files
// still on their way, which a browser reports as errors of the page that goes. A plain function,
// so that any driver can run it there (tests/engines/ too): null while loading.
export function shippedLoaded() {
  const l = window.lookback;
  if (l === undefined) return null;
  const t = l.training(), s = l.shipped();
  const settled = s.listed && s.models.length > 0 && s.models.every((m) => (m.loaded || m.error) && !m.checking) &&
    t.workersReady === t.workers && t.evaluating === 0;
  return settled ? s.models.filter((m) => !m.loaded).map((m) => `${m.file}: ${m.error}`) : null;
}

// Waits until the page has finished loading its shipped models (shippedLoaded() answers) and
// returns those it could not load; `run(fn)` calls a function in the page (page.evaluate, or an
// engine driver's run).
export async function shippedFailures(run) {
  let failed = null;
  await until('the shipped models to load', async () => (failed = await run(shippedLoaded)) !== null, 60000);
  return failed;
}

// In the page: how many of a canvas's pixels differ from its top-left pixel (the figure's
// background), and how many distinct colours it has (a blank canvas has 0 and 1). A plain
// function, so that any driver can run it there (tests/engines/ too).
export function inkInPage(name) {
  const canvas = document.querySelector(`canvas[data-figure="${name}"]`);
  const copy = document.createElement('canvas');
  copy.width = canvas.width;
  copy.height = canvas.height;
  if (!copy.width || !copy.height) return { differing: 0, colours: 0, width: copy.width, height: copy.height };
  const context = copy.getContext('2d');
  context.drawImage(canvas, 0, 0);
  const pixels = context.getImageData(0, 0, copy.width, copy.height).data;
  const colours = new Set();
  let differing = 0;
  for (let i = 0; i < pixels.length; i += 4) {
    const rgba = (pixels[i] << 24) | (pixels[i + 1] << 16) | (pixels[i + 2] << 8) | pixels[i + 3];
    if (colours.size < 10000) colours.add(rgba);
    if (pixels[i] !== pixels[0] || pixels[i + 1] !== pixels[1] || pixels[i + 2] !== pixels[2]) differing++;
  }
  return { differing, colours: colours.size, width: canvas.width, height: canvas.height };
}
export const canvasInk = (page, name) => page.evaluate(inkInPage, name);

export function screenshotPath(file) {
  fs.mkdirSync(screenshots, { recursive: true });
  return path.join(screenshots, file);
}

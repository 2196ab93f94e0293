// tests/engines/helpers.mjs — what the smoke tests in Firefox and WebKit share: an X server of
// their own (Xvfb: without a display Firefox gives no WebGL2, and WebKitGTK's MiniBrowser is a
// window), the site served with every request logged, and one small driver per engine with the
// same few verbs, so that tests/engines/smoke.mjs is written once:
//
//   Firefox ESR: puppeteer-core over WebDriver BiDi (Firefox speaks it itself, no geckodriver);
//   WebKitGTK:   selenium-webdriver over W3C WebDriver to Debian's WebKitWebDriver, which runs
//                the MiniBrowser.
//
// driver = { engine, version, goto(url), reload(), run(fn, ...args), click(x, y), type(text),
//            press(key), problems, close() }
// run() calls `fn` in the page with JSON arguments and returns its (awaited) JSON result; click()
// is a real mouse click at viewport CSS pixels; type() and press() are real keys to the focused
// element. `problems` gathers console errors and page errors where the protocol reports them
// (BiDi does; WebKitWebDriver has no log endpoint, so the smoke set also watches in the page).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const site = process.env.LOOKBACK_SITE || path.join(root, 'build/site');
export const logs = process.env.LOOKBACK_TEST_LOGS || path.join(root, 'build/test-logs');

const firefoxBinary = '/usr/bin/firefox-esr';
const miniBrowser = '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// Waits until `predicate()` holds, polling; fails with `what` after `timeout` ms.
export async function until(what, predicate, timeout = 10000, every = 100) {
  const end = Date.now() + timeout;
  for (;;) {
    if (await predicate()) return;
    if (Date.now() > end) throw new Error(`timed out after ${timeout / 1000} s waiting for ${what}`);
    await sleep(every);
  }
}

// Processes started here end with the test process, also when a test ends it early.
const children = new Set();
process.on('exit', () => { for (const child of children) child.kill('SIGKILL'); });
function started(child) {
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}
function stop(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 3000);
    child.once('exit', () => { clearTimeout(timer); resolve(); });
    child.kill();
  });
}

// An X server on a free display (Xvfb picks it and writes its number to fd 3); what it says goes
// to `logFile`. Returns { display, exited() (why it stopped, or null while it runs), close() }.
export async function startXvfb(logFile) {
  const xvfb = started(spawn('Xvfb', ['-displayfd', '3', '-screen', '0', '1600x1200x24', '-nolisten', 'tcp'],
    { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] }));
  if (logFile) fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const log = logFile ? fs.createWriteStream(logFile) : null;
  let errors = '', exit = null, closing = false;
  xvfb.stderr.on('data', (chunk) => { errors += chunk; log?.write(chunk); });
  xvfb.on('exit', (code, signal) => { if (!closing) exit = `Xvfb exited (${signal ?? code}): ${errors.trim().split('\n').slice(-3).join(' / ')}`; });
  const display = await new Promise((resolve, reject) => {
    let text = '';
    xvfb.stdio[3].on('data', (chunk) => {
      text += chunk;
      if (text.includes('\n')) resolve(`:${text.trim()}`);
    });
    xvfb.on('error', (error) => reject(new Error(`Xvfb did not start (${error.message}): install Debian's xvfb`)));
    xvfb.on('exit', (code) => reject(new Error(`Xvfb exited with ${code}: ${errors}`)));
  });
  return {
    display,
    exited: () => exit,
    close: async () => { closing = true; await stop(xvfb); log?.end(); },
  };
}

// Serves `folder` with web/page/serve.mjs on a free port, every request logged (to `logFile`
// too). Returns { url, requests: [{status, method, path}], failures(), close() }.
export async function serveLogged(folder, logFile) {
  if (!fs.existsSync(path.join(folder, 'index.html'))) throw new Error(`${folder} holds no site: run ./build_wasm.sh first`);
  const server = started(spawn(process.execPath, [path.join(root, 'web/page/serve.mjs'), folder], {
    env: { ...process.env, PORT: '0', LOOKBACK_SERVE_LOG: '1' },
    stdio: ['ignore', 'pipe', 'inherit'],
  }));
  if (logFile) fs.mkdirSync(path.dirname(logFile), { recursive: true });
  const log = logFile ? fs.createWriteStream(logFile) : null;
  const requests = [];
  let pending = '';
  const url = await new Promise((resolve, reject) => {
    server.stdout.on('data', (chunk) => {
      log?.write(chunk);
      pending += chunk;
      const lines = pending.split('\n');
      pending = lines.pop();
      for (const line of lines) {
        const served = line.match(/^(\d{3}) (\S+) (\S+)$/);
        if (served) requests.push({ status: Number(served[1]), method: served[2], path: served[3] });
        const listening = line.match(/http:\/\/127\.0\.0\.1:\d+\//);
        if (listening) resolve(listening[0]);
      }
    });
    server.on('exit', (code) => reject(new Error(`serve.mjs exited with ${code}`)));
  });
  return {
    url,
    requests,
    failures: () => requests.filter((r) => r.status >= 400).map((r) => `${r.status} ${r.method} ${r.path}`),
    close: async () => { await stop(server); log?.end(); },
  };
}

// A free TCP port on 127.0.0.1, for WebKitWebDriver.
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

// Firefox ESR over WebDriver BiDi (puppeteer-core), a window on `display`, viewport width × height.
export async function firefox(display, { width = 1280, height = 900 } = {}) {
  if (!fs.existsSync(firefoxBinary)) throw new Error(`${firefoxBinary} is missing: install Debian's firefox-esr`);
  const { default: puppeteer } = await import('puppeteer-core');
  const browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: firefoxBinary,
    headless: false,  // headless without a display, Firefox gives no WebGL2 context; a window is a reader's
    env: { ...process.env, DISPLAY: display, MOZ_CRASHREPORTER_DISABLE: '1' },
    defaultViewport: { width, height },
    protocolTimeout: 240000,
  });
  const page = (await browser.pages())[0] ?? await browser.newPage();
  const problems = [];
  page.on('console', (message) => { if (message.type() === 'error') problems.push(`console error: ${message.text()}`); });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  const keyNames = { Enter: 'Enter', Tab: 'Tab' };
  return {
    engine: 'Firefox',
    version: await browser.version(),
    problems,
    goto: async (url) => { await page.goto(url, { timeout: 60000 }); await page.bringToFront(); },
    reload: async () => { await page.reload({ timeout: 60000 }); },
    run: (fn, ...args) => page.evaluate(fn, ...args),
    click: (x, y) => page.mouse.click(x, y),
    type: (text) => page.keyboard.type(text),
    press: (key) => page.keyboard.press(keyNames[key]),
    close: () => browser.close(),
  };
}

// WebKitGTK's MiniBrowser over W3C WebDriver (selenium-webdriver to WebKitWebDriver), a window on
// `display` of width × height (its viewport is a little shorter: the window has a toolbar; width 0
// leaves the window as MiniBrowser opens it).
export async function webkit(display, { width = 1280, height = 900 } = {}) {
  for (const file of [miniBrowser, '/usr/bin/WebKitWebDriver']) {
    if (!fs.existsSync(file)) throw new Error(`${file} is missing: install Debian's webkit2gtk-driver`);
  }
  const { Builder, Key, Origin } = await import('selenium-webdriver');
  const port = await freePort();
  const service = started(spawn('WebKitWebDriver', [`--port=${port}`], {
    env: { ...process.env, DISPLAY: display }, stdio: ['ignore', 'ignore', 'inherit'],
  }));
  await until('WebKitWebDriver to listen', () => new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => { socket.end(); resolve(true); });
    socket.on('error', () => resolve(false));
  }), 10000, 50);
  const driver = await new Builder().usingServer(`http://127.0.0.1:${port}`).withCapabilities({
    browserName: 'MiniBrowser',
    'webkitgtk:browserOptions': { binary: miniBrowser, args: ['--automation'] },
  }).build();
  await driver.manage().setTimeouts({ script: 240000, pageLoad: 60000 });
  if (width) await driver.manage().window().setRect({ x: 0, y: 0, width, height });
  const keyNames = { Enter: Key.ENTER, Tab: Key.TAB };
  return {
    engine: 'WebKit',
    version: (await driver.getCapabilities()).get('browserVersion'),
    problems: [],
    goto: (url) => driver.get(url),
    reload: () => driver.navigate().refresh(),
    // The W3C Execute Script awaits a returned promise.
    run: (fn, ...args) => driver.executeScript(`return (${fn}).apply(null, arguments);`, ...args),
    click: (x, y) => driver.actions({ async: true })
      .move({ x: Math.round(x), y: Math.round(y), origin: Origin.VIEWPORT }).click().perform(),
    type: (text) => driver.actions({ async: true }).sendKeys(text).perform(),
    press: (key) => driver.actions({ async: true }).sendKeys(keyNames[key]).perform(),
    close: async () => {
      await driver.quit().catch(() => {});
      await stop(service);
    },
  };
}

// tests/browser/offline.test.mjs — the site kept for reading offline (web/page/service_worker.js,
// versioned by web/page/offline.mjs): a page opened once loads again with the network off and
// its server gone, every figure draws, a training run completes an epoch and the self-check
// answers, and a reader's Cyrillic task gets its font from the cache; a new build served
// afterwards replaces the cache (the font stays kept). The manifest makes it installable.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { writeServiceWorker } from '../../web/page/offline.mjs';
import { canvasInk, clickWidget, launch, openWatched, serve, settled, site, state, until } from './helpers.mjs';

const cacheNames = (page) => page.evaluate(() => caches.keys());
// A reload cancels what the page is still fetching, which the watcher would count as failed: the
// page's workers (started at load to check the shipped models) are let finish loading first.
const workersSettled = (page) => until('the training workers to load', () => page.evaluate(() => {
  const t = window.lookback?.training();
  return t !== undefined && t.workersReady === t.workers && t.evaluating === 0;
}), 30000);
const versionIn = (folder) => fs.readFileSync(path.join(folder, 'service_worker.js'), 'utf8').match(/const siteVersion = '([0-9a-f]+)'/)[1];

test('a page opened once reads and trains offline, and a new build replaces the cache', async (t) => {
  // A copy of the site that the test can take away (the server then answers 404 to everything)
  // and rebuild.
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'lookback-offline-'));
  const away = `${folder}-away`;
  fs.cpSync(site, folder, { recursive: true });
  const server = await serve(folder);
  const browser = await launch();
  t.after(async () => {
    await browser.close();
    server.close();
    for (const f of [folder, away]) fs.rmSync(f, { recursive: true, force: true });
  });
  const first = versionIn(folder);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const link = `${server.url}?tr.width=8&tr.epochs=1`;
  const { page, problems } = await openWatched(context, link);
  await until('the service worker to keep the site', () => page.evaluate(async () =>
    (await navigator.serviceWorker.getRegistration())?.active?.state === 'activated'), 30000);
  assert.deepEqual(await cacheNames(page), [`lookback-${first}`]);
  const kept = await page.evaluate(async (name) => (await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname), `lookback-${first}`);
  for (const file of ['/index.html', '/embed.html', '/lookback_web.wasm', '/lookback_trainer.wasm', '/training_worker.js', '/assets/attention-64.safetensors', '/manifest.webmanifest']) {
    assert.ok(kept.includes(file), `the cache holds ${file}`);
  }

  // A font for a reader's task is not kept at install, but once a task has needed it: a small
  // Cyrillic task used here is kept for the next visit, which makes it again offline.
  assert.ok(!kept.includes('/fonts/DejaVuSans.ttf'), 'the fonts are not kept at install');
  const cyrillic = Array.from({ length: 120 }, (_, i) => {
    const input = (i + 25).toString(5).split('').map((d) => 'абвгд'[Number(d)]).join('');
    return `${input}\t${[...input].reverse().join('')}`;
  }).join('\n');
  await page.evaluate((text) => { document.getElementById('own-pairs-text').value = text; }, cyrillic);
  await page.click('#own-pairs-use');
  const fontsSaid = () => page.getAttribute('#own-pairs', 'data-own-pairs-fonts');
  await until('the font fetched', async () => (await fontsSaid()) === 'loaded', 30000);
  const fontKept = () => page.evaluate(async () =>
    (await (await caches.open('lookback-on-demand')).keys()).some((r) => new URL(r.url).pathname === '/fonts/DejaVuSans.ttf'));
  await until('the font kept', fontKept, 30000);

  // The network off and the server gone: the page comes from the cache alone.
  await workersSettled(page);
  fs.renameSync(folder, away);
  await context.setOffline(true);
  await page.reload();
  await until('the figures to start offline', () => page.evaluate(() => window.lookback !== undefined), 20000);
  assert.ok(await page.evaluate(() => navigator.serviceWorker.controller !== null), 'the service worker serves the page');
  await until('the kept task\'s font, offline', async () => (await fontsSaid()) === 'loaded', 30000);
  for (const name of await page.evaluate(() => window.lookback.figures())) {
    await page.locator(`canvas[data-figure="${name}"]`).scrollIntoViewIfNeeded();
    await settled(page, name);
    const ink = await canvasInk(page, name);
    assert.ok(ink.differing > 500 && ink.colours > 8, `${name} drew offline: ${JSON.stringify(ink)}`);
  }
  await until('its letters in the figures\' atlas (at their next frame)', () => page.evaluate(() =>
    window.lookback.fontReport('абвгд').missing.length === 0), 20000);
  await clickWidget(page, 'training', 'train');
  await until('an epoch trained offline', async () => (await state(page, 'training')).runs.every((r) => r.epochs.length >= 1), 120000);
  assert.equal((await page.evaluate(() => window.lookback.training())).mode, 'workers', 'in Web Workers, from the cache too');
  await page.waitForSelector('#self-check[data-computations="ready"]');
  await page.locator('#c-context input').fill('five');
  await page.locator('#c-context button[type="submit"]').click();
  await until('the self-check to answer', async () => (await page.locator('#c-context').getAttribute('data-result')) === 'invalid');
  assert.deepEqual(problems, [], 'nothing failed and nothing reached the network');

  // A second build: one changed file gives a new version, which replaces the cache.
  fs.renameSync(away, folder);
  await context.setOffline(false);
  const html = fs.readFileSync(path.join(folder, 'index.html'), 'utf8');
  fs.writeFileSync(path.join(folder, 'index.html'), html.replace('<h1>Attention before Transformers</h1>', '<h1>Attention before Transformers, rebuilt</h1>'));
  const second = writeServiceWorker(folder);
  assert.notEqual(second, first);
  await workersSettled(page);
  await page.reload();  // from the old cache; the browser finds the new worker meanwhile
  await until('the new build to replace the cache', async () => {
    const names = await cacheNames(page);
    return names.length === 2 && names.includes(`lookback-${second}`) && names.includes('lookback-on-demand');
  }, 30000);
  assert.ok(await fontKept(), 'the font, the same file in the new build, stays kept');
  await workersSettled(page);
  await page.reload();
  assert.equal(await page.locator('h1').textContent(), 'Attention before Transformers, rebuilt');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the manifest makes the page installable', async (t) => {
  const server = await serve();
  const browser = await launch();
  t.after(async () => { await browser.close(); server.close(); });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const { page, problems } = await openWatched(context, server.url);
  const manifest = await page.evaluate(async () => {
    const link = document.querySelector('link[rel="manifest"]');
    const response = await fetch(link.href);
    return { type: response.headers.get('content-type'), body: await response.json() };
  });
  assert.match(manifest.type, /^application\/manifest\+json/);
  assert.equal(manifest.body.start_url, './');
  const icon = await page.evaluate(async (src) => (await fetch(src)).status, manifest.body.icons[0].src);
  assert.equal(icon, 200);
  // Chromium's own verdict, once the service worker is up.
  await page.evaluate(() => navigator.serviceWorker.ready);
  const session = await context.newCDPSession(page);
  const { installabilityErrors } = await session.send('Page.getInstallabilityErrors');
  assert.deepEqual(installabilityErrors.map((e) => e.errorId).filter((id) => id !== 'in-incognito'), []);
  assert.deepEqual(problems, []);
  await context.close();
});

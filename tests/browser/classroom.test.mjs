// tests/browser/classroom.test.mjs — what a teacher does with a figure: opens it alone for an
// iframe (embed.html?figure=NAME, its settings from the same URL table, an unknown name refused
// by name), locks it (lock=1 or lock=NAME: its controls do not respond, it says so, Unlock opens
// the same link without the lock), and exports it from the toolbar under it (a PNG with its title
// and link inside, its state as JSON, its table as CSV, its link copied).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import zlib from 'node:zlib';
import { canvasInk, clickWidget, openWatched, rect, screenshotPath, settled, site, state, until, useBrowser } from './helpers.mjs';

const env = useBrowser({ ownContexts: true });
// The figures of the article, in its order, from the built page.
const figureNames = [...fs.readFileSync(path.join(site, 'index.html'), 'utf8').matchAll(/<canvas data-figure="([^"]+)"/g)].map((m) => m[1]);

test('every figure opens alone in embed.html, as wide as its frame, with its caption and toolbar', async () => {
  assert.equal(figureNames.length, 10);
  const context = await env.browser.newContext({ viewport: { width: 390, height: 844 } });
  for (const name of figureNames) {
    const { page, problems } = await openWatched(context, `${env.url}embed.html?figure=${name}`);
    assert.deepEqual(await page.evaluate(() => window.lookback.figures()), [name]);
    await settled(page, name);
    const ink = await canvasInk(page, name);
    assert.ok(ink.differing > 500 && ink.colours > 8, `${name} drew: ${JSON.stringify(ink)}`);
    const layout = await page.evaluate(() => {
      const box = document.querySelector('canvas[data-figure]').getBoundingClientRect();
      return { left: box.left, right: innerWidth - box.right, overflow: document.documentElement.scrollWidth - innerWidth,
               caption: document.querySelector('figcaption').textContent, title: document.title,
               tools: document.querySelectorAll('.figure-tools button:not([hidden])').length,
               source: document.querySelector('.embed-source a').getAttribute('href') };
    });
    assert.ok(layout.left < 12 && layout.right < 12 && layout.overflow <= 0, `${name} fills its frame: ${JSON.stringify(layout)}`);
    assert.match(layout.caption, /^Figure \d+b?\./);
    assert.match(layout.title, /^Figure \d+b? · Lookback$/);
    assert.ok(layout.tools >= 3, `${name}: the toolbar's buttons`);
    assert.match(layout.source, new RegExp(`^index\\.html#`));
    if (name === 'alignment') await page.screenshot({ path: screenshotPath('embed-alignment-390.png') });
    assert.deepEqual(problems, [], name);
    await page.close();
  }
  await context.close();
});

test('an embedded figure reads its settings from the same URL table, and refuses a bad one by name', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const { page, problems } = await openWatched(context, `${env.url}embed.html?figure=alignment&al.date=3%2F4%2F1999&al.row=2&al.ex=oops`);
  await settled(page, 'alignment');
  const s = await state(page, 'alignment');
  assert.equal(s.input, '3/4/1999');
  assert.equal(s.selected_output, 2);
  assert.equal(s.url_messages.length, 1);
  assert.match(s.url_messages[0], /al\.ex='oops' is not usable/);
  assert.match(await page.locator('.embed-source a').getAttribute('href'), /^index\.html\?al\.date=3%2F4%2F1999&al\.row=2&al\.ex=oops#figure-5$/);
  await page.screenshot({ path: screenshotPath('embed-alignment-1280.png') });
  assert.deepEqual(problems, []);
  await context.close();
});

test('an unknown or missing figure name is refused on the page, with every name listed', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  for (const [query, said] of [['?figure=trainnig%1B', /figure="trainnig\\u001b" names no figure of Lookback/], ['', /named in its link by figure=NAME/]]) {
    const { page, problems } = await openWatched(context, `${env.url}embed.html${query}`);
    const refusal = page.getByRole('alert');
    assert.match(await refusal.textContent(), said);
    assert.deepEqual(await refusal.locator('li a').allTextContents(), figureNames);
    assert.equal(await page.locator('canvas').count(), 0);
    assert.deepEqual(await page.evaluate(() => window.lookback.figures()), []);
    assert.deepEqual(problems, []);
    await page.close();
  }
  await context.close();
});

test('a locked figure takes no input, says so, and Unlock opens the same link without the lock', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const { page, problems } = await openWatched(context, `${env.url}?tr.width=16&lock=training#figure-3`);
  await settled(page, 'training');
  assert.equal((await state(page, 'training')).locked, true);
  assert.equal((await state(page, 'alignment')).locked, false, 'lock=training locks that figure alone');
  assert.ok(await rect(page, 'training', 'lock-note'), 'the figure says it is locked');
  await clickWidget(page, 'training', 'train');
  await page.waitForTimeout(1000);
  const after = await state(page, 'training');
  assert.equal(after.running, false, 'Train does not respond');
  assert.deepEqual(after.runs.map((r) => r.steps), [0, 0]);
  assert.equal(after.width, 16, 'the teacher\'s settings hold');
  await page.locator('#figure-3').screenshot({ path: screenshotPath('locked-training-1280.png') });
  const unlock = page.locator('#figure-3 .figure-unlock');
  assert.ok(await unlock.isVisible());
  assert.equal(await page.locator('#figure-5 .figure-unlock').isVisible(), false);
  await unlock.click();
  await until('the unlocked page', () => page.evaluate(() => window.lookback !== undefined && !location.search.includes('lock')), 15000);
  assert.match(page.url(), /\?tr\.width=16#figure-3$/);
  assert.equal((await state(page, 'training')).locked, false);
  assert.deepEqual(problems, []);
  await context.close();
});

test('lock=1 locks an embedded figure; a lock naming no figure is refused by name and locks nothing', async () => {
  const context = await env.browser.newContext({ viewport: { width: 390, height: 844 } });
  const { page, problems } = await openWatched(context, `${env.url}embed.html?figure=alignment&al.ex=7&lock=1`);
  await settled(page, 'alignment');
  assert.equal((await state(page, 'alignment')).locked, true);
  await clickWidget(page, 'alignment', 'next');
  await page.waitForTimeout(500);
  assert.equal((await state(page, 'alignment')).example, 7, 'the arrows do not respond');
  await page.screenshot({ path: screenshotPath('embed-locked-alignment-390.png'), fullPage: true });
  assert.deepEqual(problems, []);

  const bad = await openWatched(context, `${env.url}?lock=trainnig`);
  for (const name of ['training', 'alignment']) {
    const s = await state(bad.page, name);
    assert.equal(s.locked, false);
    assert.ok(s.url_messages.some((m) => /lock='trainnig'/.test(m) && /training/.test(m)), `${name}: ${JSON.stringify(s.url_messages)}`);
  }
  assert.deepEqual(bad.problems, []);
  await context.close();
});

// The chunks of a PNG file, with their CRCs checked.
function pngChunks(bytes) {
  assert.deepEqual([...bytes.subarray(0, 8)], [137, 80, 78, 71, 13, 10, 26, 10], 'the PNG signature');
  const chunks = [];
  for (let at = 8; at < bytes.length;) {
    const length = bytes.readUInt32BE(at);
    const type = bytes.toString('latin1', at + 4, at + 8);
    const data = bytes.subarray(at + 8, at + 8 + length);
    assert.equal(bytes.readUInt32BE(at + 8 + length), zlib.crc32(bytes.subarray(at + 4, at + 8 + length)), `${type}'s CRC`);
    chunks.push({ type, data });
    at += 12 + length;
  }
  return chunks;
}

async function saved(page, figure, kind) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.locator(`${figure} [data-export="${kind}"]`).click()]);
  return { name: download.suggestedFilename(), bytes: fs.readFileSync(await download.path()) };
}

test('the toolbar saves a figure as a PNG with its title and link, its state as JSON, its table as CSV, and copies its link', async () => {
  for (const dark of [false, true]) {
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 2, colorScheme: dark ? 'dark' : 'light' });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    const { page, problems } = await openWatched(context, `${env.url}?al.ex=12#figure-5`);
    await settled(page, 'alignment');
    await until('the map', async () => (await state(page, 'alignment')).peaks.length === 10, 20000);
    await clickWidget(page, 'alignment', 'next');  // a setting changed by hand: the link follows it
    await until('example 13 in the address', () => page.evaluate(() => location.search.includes('al.ex=13')));
    await settled(page, 'alignment');

    const png = await saved(page, '#figure-5', 'png');
    assert.equal(png.name, 'lookback-alignment.png');
    const texts = Object.fromEntries(pngChunks(png.bytes).filter((c) => c.type === 'iTXt').map(({ data }) => {
      const keyword = data.subarray(0, data.indexOf(0)).toString('latin1');
      return [keyword, data.subarray(keyword.length + 5).toString('utf8')];
    }));
    assert.match(texts.Title, /^Figure 5: the attention weights/);
    assert.equal(texts.URL, `${env.url}?al.ex=13#figure-5`);
    const canvas = await canvasInk(page, 'alignment');
    const decoded = await page.evaluate(async (base64) => {
      const bitmap = await createImageBitmap(new Blob([Uint8Array.from(atob(base64), (c) => c.charCodeAt(0))], { type: 'image/png' }));
      const copy = new OffscreenCanvas(bitmap.width, bitmap.height).getContext('2d');
      copy.drawImage(bitmap, 0, 0);
      const pixels = copy.getImageData(0, 0, bitmap.width, bitmap.height).data;
      const colours = new Set();
      for (let i = 0; i < pixels.length; i += 4) colours.add((pixels[i] << 16) | (pixels[i + 1] << 8) | pixels[i + 2]);
      return { width: bitmap.width, height: bitmap.height, colours: colours.size };
    }, png.bytes.toString('base64'));
    assert.deepEqual([decoded.width, decoded.height], [canvas.width, canvas.height], 'the canvas\'s size, in device pixels');
    assert.ok(decoded.width >= 1500, `at devicePixelRatio 2: ${decoded.width}`);
    assert.ok(decoded.colours > 50, `not blank: ${decoded.colours} colours`);

    const json = JSON.parse((await saved(page, '#figure-5', 'json')).bytes.toString('utf8'));
    assert.equal(json.figure, 'alignment');
    assert.equal(json.link, `${env.url}?al.ex=13#figure-5`);
    assert.deepEqual(json.state, await state(page, 'alignment'));

    const csv = (await saved(page, '#figure-5', 'csv')).bytes.toString('utf8').trim().split('\n');
    assert.deepEqual(csv[0].split(','), ['output', 'peak at', 'input there', 'weight']);
    const peaks = (await state(page, 'alignment')).peaks;
    assert.equal(csv.length, 1 + peaks.length, 'a header and a row per output character');
    assert.deepEqual(csv.slice(1).map((line) => Number(line.split(',').at(-1))), peaks.map((p) => Number(p.weight.toFixed(3))));
    // A figure without a table has no CSV button.
    assert.equal(await page.locator('#bottleneck-figure [data-export="csv"]').isVisible(), false);

    await page.locator('#figure-5 [data-export="link"]').click();
    await until('the status', async () => /Link copied/.test(await page.locator('#figure-5 .figure-tools-status').textContent()));
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    assert.equal(copied, `${env.url}?al.ex=13#figure-5`);
    const reopened = await openWatched(context, copied);
    await settled(reopened.page, 'alignment');
    const [a, b] = [await state(page, 'alignment'), await state(reopened.page, 'alignment')];
    assert.deepEqual([b.example, b.input, b.output, b.selected_output], [a.example, a.input, a.output, a.selected_output], 'the link reproduces the figure');
    if (!dark) await page.locator('#figure-5').screenshot({ path: screenshotPath('toolbar-1280.png') });
    assert.deepEqual([...problems, ...reopened.problems], []);
    await context.close();
  }
});

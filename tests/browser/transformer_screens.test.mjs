// tests/browser/transformer_screens.test.mjs — screenshots of the Transformer section's figures at
// 1280 px and on a 390 px phone (light), and once dark, into build/screenshots/transformer-*.png
// (look at them), and a check that each figure drew something. The training figure is shot after
// a short run at width 16, so its curves have something to show. LOOKBACK_SITE overrides build/site.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canvasInk, clickWidget, openWatched, rect, screenshotPath, state, until, useBrowser } from './helpers.mjs';

const sizes = {
  desktop: { viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 },
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
  dark: { viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1, colorScheme: 'dark' },
};

const env = useBrowser({ folder: process.env.LOOKBACK_SITE || undefined });

for (const [size, options] of Object.entries(sizes)) {
  test(`the Transformer figures draw (${size}); screenshots`, async () => {
    const context = await env.browser.newContext(options);
    const { page, problems } = await openWatched(context, `${env.url}?tf.width=16&tf.epochs=1&tm.row=8`);
    for (const [name, widget] of [['transformer-training', 'train'], ['transformer-maps', 'map']]) {
      const canvas = page.locator(`canvas[data-figure="${name}"]`);
      await canvas.scrollIntoViewIfNeeded();
      await until(`${name} to draw ${widget}`, async () => (await rect(page, name, widget)) !== null, 30000);
      if (name === 'transformer-training') {
        await clickWidget(page, name, 'train');
        await until('one epoch of each', async () => (await state(page, name)).runs.every((r) => r.epoch >= 1), 240000);
      }
      await page.waitForTimeout(400);  // the last redraw
      const ink = await canvasInk(page, name);
      assert.ok(ink.differing > 2000 && ink.colours > 20, `${name} drew (${size}): ${JSON.stringify(ink)}`);
      // A tall canvas at twice the pixels under software WebGL: the shot takes long.
      await canvas.screenshot({ path: screenshotPath(`transformer-${name}-${size}.png`), timeout: 120000 });
    }
    assert.deepEqual(problems, []);
    await context.close();
  });
}

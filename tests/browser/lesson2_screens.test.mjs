// tests/browser/lesson2_screens.test.mjs — screenshots of the experiment's figures, on a desktop
// and on a phone, into build/screenshots/lesson2-*.png (look at them), and a check that every
// figure drew something at both sizes. The training figure is shot after a short run, so its
// curves have something to show. LOOKBACK_SITE overrides build/site.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  canvasInk, clickWidget, openWatched, rect, screenshotPath, state, until, useBrowser,
} from './helpers.mjs';

const figures = [
  ['training', 'train'], ['sweep', 'run-all'], ['alignment', 'date'], ['probes', 'gradient'], ['results', 'save-csv'],
];
const sizes = {
  desktop: { viewport: { width: 1000, height: 900 }, deviceScaleFactor: 1 },
  phone: { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true },
};

const env = useBrowser({ folder: process.env.LOOKBACK_SITE || undefined });

for (const [size, options] of Object.entries(sizes)) {
  test(`every experiment figure draws on a ${size}; screenshots`, async () => {
    const context = await env.browser.newContext(options);
    const { page, problems } = await openWatched(context, `${env.url}?tr.width=16&tr.epochs=2`);
    for (const [name, widget] of figures) {
      const canvas = page.locator(`canvas[data-figure="${name}"]`);
      await canvas.scrollIntoViewIfNeeded();
      await until(`${name} to draw ${widget}`, async () => (await rect(page, name, widget)) !== null, 30000);
      if (name === 'training') {
        await clickWidget(page, 'training', 'train');
        await until('two epochs of training', async () => (await state(page, 'training')).runs.every((r) => r.done), 60000);
      }
      await page.waitForTimeout(400);  // the last redraw
      const ink = await canvasInk(page, name);
      assert.ok(ink.differing > 2000 && ink.colours > 20, `${name} drew on a ${size}: ${JSON.stringify(ink)}`);
      // What the viewport shows of it, from its top: a figure taller than a phone's viewport
      // (the sweep, 867 px at 390 px wide) times out as an element or a full-page screenshot.
      await canvas.evaluate((element) => element.scrollIntoView({ block: 'start' }));
      const box = await canvas.boundingBox();
      const height = Math.min(box.height, page.viewportSize().height - box.y);
      await page.screenshot({ path: screenshotPath(`lesson2-${name}-${size}.png`),
                              clip: { x: box.x, y: box.y, width: box.width, height } });
    }
    assert.deepEqual(problems, []);
    await context.close();
  });
}

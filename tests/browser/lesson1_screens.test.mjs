// tests/browser/lesson1_screens.test.mjs — the lesson's first part at a desktop width (1280 px)
// and a phone width (390 px), light and dark: no console error, nothing wider than the screen,
// the figures follow the theme, and screenshots in build/screenshots/ to look at.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openWatched, screenshotPath, settled, useBrowser } from './helpers.mjs';

const env = useBrowser();

// The figure's background colour, from its canvas's first pixel.
const canvasBackground = (page, name) => page.evaluate((n) => {
  const canvas = document.querySelector(`canvas[data-figure="${n}"]`);
  const copy = document.createElement('canvas');
  copy.width = copy.height = 1;
  copy.getContext('2d').drawImage(canvas, 0, 0, 1, 1, 0, 0, 1, 1);
  return [...copy.getContext('2d').getImageData(0, 0, 1, 1).data.slice(0, 3)];
}, name);

for (const width of [1280, 390]) {
  for (const scheme of ['light', 'dark']) {
    test(`screens: ${width} px, ${scheme}`, async () => {
      const context = await env.browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme });
      const { page, problems } = await openWatched(context, env.url);
      for (const name of ['bottleneck', 'worked-example']) {
        const canvas = page.locator(`canvas[data-figure="${name}"]`);
        await canvas.scrollIntoViewIfNeeded();
        await settled(page, name);
        const [r, g, b] = await canvasBackground(page, name);
        const luminance = (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
        assert.ok(scheme === 'dark' ? luminance < 0.3 : luminance > 0.8, `${name} follows the ${scheme} theme: ${[r, g, b]}`);
        // The figure fits its canvas to what it draws: nothing is cut off or scrolls inside it.
        const box = await canvas.boundingBox();
        assert.ok(box.height > 300, `${name} is tall enough: ${box.height}`);
        await canvas.screenshot({ path: screenshotPath(`lesson1-${name}-${width}-${scheme}.png`) });
      }
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 0, `nothing is wider than the screen (${overflow} px too wide)`);

      // The lesson's two stretches of page, each shot through a viewport as tall as the stretch:
      // a full-page capture would resize the page under the canvases and catch them blank.
      const stretches = { opening: ['header.masthead', '#experiment'], closing: ['#gains-and-limits', 'footer'] };
      for (const [part, [from, to]] of Object.entries(stretches)) {
        const [top, bottom] = await page.evaluate(([a, b]) => [a, b].map((s) =>
          document.querySelector(s).getBoundingClientRect().top + window.scrollY), [from, to]);
        await page.setViewportSize({ width, height: Math.ceil(bottom - top) });
        await page.evaluate((y) => window.scrollTo(0, y), top);
        if (part === 'opening') for (const name of ['bottleneck', 'worked-example']) await settled(page, name);
        // In pieces a person can look at, 1,500 CSS px high.
        const height = Math.ceil(bottom - top);
        for (let y = 0, piece = 1; y < height; y += 1500, piece++) {
          await page.screenshot({
            path: screenshotPath(`lesson1-${part}-${width}-${scheme}-${piece}.png`),
            clip: { x: 0, y, width, height: Math.min(1500, height - y) },
          });
        }
      }
      assert.deepEqual(problems, []);
      await context.close();
    });
  }
}

test('the figures follow a change of theme while the page is open', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
  const { page, problems } = await openWatched(context, env.url);
  const canvas = page.locator('canvas[data-figure="worked-example"]');
  await canvas.scrollIntoViewIfNeeded();
  await settled(page, 'worked-example');
  const light = await canvasBackground(page, 'worked-example');
  await page.emulateMedia({ colorScheme: 'dark' });
  await settled(page, 'worked-example');
  const dark = await canvasBackground(page, 'worked-example');
  assert.ok(light[0] > 200 && dark[0] < 60, `light ${light} then dark ${dark}`);
  assert.deepEqual(problems, []);
  await context.close();
});

// temporary: screenshots for looking (not committed)
import { launch, serve, openWatched, state, rect, until, clickWidget } from './helpers.mjs';
const server = await serve();
const browser = await launch();
for (const [w, tag] of [[1280, 'desktop'], [390, 'phone']]) {
  const context = await browser.newContext({ viewport: { width: w, height: 900 } });
  const { page, problems } = await openWatched(context, server.url + '?tr.task=translation&tr.width=32&tr.epochs=2&rs.task=translation&ck.task=translation');
  await page.locator('canvas[data-figure="training"]').scrollIntoViewIfNeeded();
  await until('train', async () => (await rect(page, 'training', 'train')) !== null, 20000);
  await clickWidget(page, 'training', 'train');
  await until('done', async () => (await state(page, 'training')).runs.every((r) => r.done), 240000);
  await page.waitForTimeout(500);
  await page.locator('canvas[data-figure="training"]').screenshot({ path: `/tmp/shots/training-${tag}.png` });
  await page.locator('canvas[data-figure="results"]').scrollIntoViewIfNeeded();
  await page.waitForTimeout(1500);
  await page.locator('canvas[data-figure="results"]').screenshot({ path: `/tmp/shots/results-${tag}.png` });
  await page.locator('canvas[data-figure="checked"]').scrollIntoViewIfNeeded();
  await until('live', async () => (await rect(page, 'checked', 'model-live')) !== null, 20000);
  await clickWidget(page, 'checked', 'model-live');
  await page.waitForTimeout(1000);
  await page.locator('canvas[data-figure="checked"]').screenshot({ path: `/tmp/shots/checked-${tag}.png` });
  console.log(tag, problems);
  await context.close();
}
await browser.close(); server.close();

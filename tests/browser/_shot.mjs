import { launch, serve, openWatched, state, rect, until } from './helpers.mjs';
const server = await serve();
const browser = await launch();
for (const [w, tag] of [[1280, 'desktop'], [390, 'phone']]) {
  const context = await browser.newContext({ viewport: { width: w, height: 900 } });
  const { page, problems } = await openWatched(context, server.url + '?al.row=8&al.move=8:22-23');
  await page.locator('canvas[data-figure="alignment"]').scrollIntoViewIfNeeded();
  await until('moved', async () => (await rect(page, 'alignment', 'moved-map')) !== null, 60000);
  await page.waitForTimeout(500);
  await page.locator('canvas[data-figure="alignment"]').screenshot({ path: `/tmp/shots/whatif-${tag}.png` });
  console.log(tag, problems);
  await context.close();
}
await browser.close(); server.close();

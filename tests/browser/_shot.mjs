import { launch, serve, openWatched, state, rect, until } from './helpers.mjs';
const server = await serve();
const browser = await launch();
for (const [w, tag] of [[390, 'phone']]) {
  const context = await browser.newContext({ viewport: { width: w, height: 1400 } });
  const { page, problems } = await openWatched(context, server.url + '?tr.formats=0,5&tr.order=ymd');
  await page.locator('canvas[data-figure="training"]').scrollIntoViewIfNeeded();
  await until('drawn', async () => (await rect(page, 'training', 'train')) !== null, 60000);
  await page.waitForTimeout(500);
  await page.locator('canvas[data-figure="training"]').screenshot({ path: `/tmp/shots/dial-${tag}.png` });
  await page.locator('#figure-3').screenshot({ path: `/tmp/shots/fig3-${tag}.png` });
  console.log(tag, problems, (await state(page, 'training')).url_messages);
  await context.close();
}
await browser.close(); server.close();

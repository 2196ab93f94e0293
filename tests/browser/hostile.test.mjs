// tests/browser/hostile.test.mjs — the page as a hostile reader pokes at it: every function the
// page's JavaScript can reach is called thousands of times with bad input, dates no model can
// read are typed into the alignment figure, answers in other scripts go to the self-check. No
// exception may cross from the module into JavaScript, every answer is well-formed, and every
// figure still draws and answers afterwards.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clickWidget, openWatched, rect, state, until, useBrowser } from './helpers.mjs';

const env = useBrowser({ folder: process.env.LOOKBACK_SITE || undefined });

const hostile = ['é', '\u22121', '½', '٣', '0.5\u00a0', '', ' ', '\u0000', '\u001b[31mred', '\ud83d\ude00', 'a'.repeat(10000),
  '1e999', '-0', 'NaN', 'Infinity', '0x10', '1,5', '1.5.5', '\ufffd', '<script>', '%C3', '\u202e1977'];

test('every reachable export survives thousands of hostile calls, and every figure lives on', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1000, height: 900 } });
  const { page, problems } = await openWatched(context, env.url);
  const names = await page.evaluate(() => window.lookback.figures());
  await until('the self-check', async () => page.evaluate(() => window.lookbackSelfCheck !== undefined), 10000);

  const outcome = await page.evaluate(([figures, inputs]) => {
    const thrown = [];
    const attempt = (label, f) => {
      try { f(); } catch (error) { thrown.push(`${label}: ${error.message}`); }
    };
    let answers = 0, malformed = 0;
    for (let round = 0; round < 100; ++round) {
      for (const text of inputs) {
        for (const kind of [0, 1, 2, 3, -1, 4, 1e9, NaN]) {
          attempt('ask', () => window.lookbackSelfCheck.ask(kind));
          attempt('check', () => {
            const answer = window.lookbackSelfCheck.check(kind, text);
            answers++;
            if (typeof answer !== 'object' || answer === null || typeof answer.valid !== 'boolean') malformed++;
            if (answer && typeof answer.message === 'string' && answer.message.includes('\ufffd') && !text.includes('\ufffd')) malformed++;
          });
        }
        for (const name of figures) attempt('rect', () => window.lookback.rect(name, text));
      }
      for (const name of figures) attempt('state', () => window.lookback.state(name));
    }
    return { thrown, answers, malformed };
  }, [names, hostile]);
  assert.deepEqual(outcome.thrown, [], 'no call threw');
  assert.ok(outcome.answers > 10000, `${outcome.answers} answers`);
  assert.equal(outcome.malformed, 0, 'every answer is well-formed');

  // The self-check names a refused character whole, and still marks a right answer.
  const refused = await page.evaluate(() => { window.lookbackSelfCheck.ask(2); return window.lookbackSelfCheck.check(2, 'é'); });
  assert.equal(refused.valid, false);
  assert.ok(refused.message.length > 0 && !refused.message.includes('\ufffd'), refused.message);

  // Every figure still draws and answers.
  for (const name of names) {
    await page.locator(`canvas[data-figure="${name}"]`).scrollIntoViewIfNeeded();
    await until(`${name} to draw`, async () => page.evaluate((n) => window.lookback.frames(n) > 0, name), 20000);
    assert.ok(!('error' in (await state(page, name))), `${name} answers`);
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('dates no model can read are refused in words, and the map stays', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1000, height: 900 } });
  const { page, problems } = await openWatched(context, env.url);
  await page.locator('canvas[data-figure="alignment"]').scrollIntoViewIfNeeded();
  await until('the shipped map', async () => (await state(page, 'alignment')).weights.length === 10, 30000);
  await until('the date field', async () => (await rect(page, 'alignment', 'date')) !== null, 10000);
  for (const date of ['é 19 september 1977', '19 september 1977 \u00bd', 'x'.repeat(300), '٣ march 1990']) {
    await clickWidget(page, 'alignment', 'date');
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.insertText(date);
    await page.keyboard.press('Enter');
    await until('a refusal', async () => (await state(page, 'alignment')).message !== '', 5000);
    const s = await state(page, 'alignment');
    assert.match(s.message, /^Not shown: /);
    assert.ok(!s.message.includes('\ufffd'), `a clean message: ${s.message}`);
    assert.equal(s.input, 'monday 19 september 1977', 'the map stays on the last good string');
  }
  // A link whose date is cut inside a character: refused by name, never half a character.
  const cut = await openWatched(context, `${env.url}?al.date=${'%C3%A9'.repeat(40)}`);
  await cut.page.locator('canvas[data-figure="alignment"]').scrollIntoViewIfNeeded();
  const linked = await state(cut.page, 'alignment');
  assert.ok(linked.url_messages.some((m) => m.includes('al.date')), JSON.stringify(linked.url_messages));
  assert.ok(linked.url_messages.every((m) => !m.includes('\ufffd')));
  assert.equal(linked.input, 'monday 19 september 1977');
  assert.deepEqual([...problems, ...cut.problems], []);
  await context.close();
});

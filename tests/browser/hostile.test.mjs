// tests/browser/hostile.test.mjs — the page as a hostile reader pokes at it: every function the
// page's JavaScript can reach is called thousands of times with bad input, dates no model can
// read are typed into the alignment figure, answers in other scripts go to the self-check. No
// exception may cross from the module into JavaScript, every answer is well-formed, and every
// figure still draws and answers afterwards.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clickWidget, openWatched, rect, state, until, useBrowser } from './helpers.mjs';

const env = useBrowser({ folder: process.env.LOOKBACK_SITE || undefined, ownContexts: true });

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

// The figures' mirrors (web/page/mirror.js) are an input too: a script, an extension or a reader's
// tool can put any value into their elements. Each element gets values its control never offers;
// the figure must clamp or refuse them, and go on drawing and answering with its settings in range.
test('every mirror element takes hostile values; the figures clamp or refuse them and live on', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1000, height: 900 } });
  const { page, problems } = await openWatched(context, env.url);
  const names = await page.evaluate(() => window.lookback.figures());
  const poked = {};
  for (const name of names) {
    const canvas = page.locator(`canvas[data-figure="${name}"]`);
    await canvas.scrollIntoViewIfNeeded();
    await until(`${name}'s controls`, async () => page.evaluate((n) =>
      document.querySelector(`canvas[data-figure="${n}"]`).previousElementSibling.querySelectorAll('[data-control]').length > 0, name), 20000);
    poked[name] = await page.evaluate(([n, texts]) => {
      const root = document.querySelector(`canvas[data-figure="${n}"]`).previousElementSibling;
      const fire = (element, type) => element.dispatchEvent(new Event(type, { bubbles: true }));
      let count = 0;
      for (const element of root.querySelectorAll('input, [role="combobox"]')) {
        if (element.type === 'text') {
          for (const text of texts) {
            element.value = text;
            fire(element, 'input');
            element.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true }));
            count++;
          }
        } else if (element.type === 'number' || element.type === 'range') {
          for (const value of ['1e308', '-1e308', '2147483648', '-1', '0.5', 'NaN', '']) {
            element.value = value;
            fire(element, element.type === 'range' ? 'input' : 'change');
            count++;
          }
        } else if (element.getAttribute('role') === 'combobox') {
          // Past either end of its options, and a letter no option starts with.
          for (const key of ['End', 'ArrowDown', 'PageDown', 'Home', 'ArrowUp', 'PageUp', '\u0416']) {
            element.dispatchEvent(new KeyboardEvent('keydown', { key, bubbles: true }));
            count++;
          }
        }
      }
      return count;
    }, [name, hostile]);
  }
  // Every figure still draws and answers, and what the reader can set stayed in its range.
  for (const name of names) {
    await page.locator(`canvas[data-figure="${name}"]`).scrollIntoViewIfNeeded();
    const frames = await page.evaluate((n) => window.lookback.frames(n), name);
    await page.mouse.move(5, 5);
    await until(`${name} to draw again`, async () => (await page.evaluate((n) => window.lookback.frames(n), name)) >= frames, 20000);
    assert.ok(!('error' in (await state(page, name))), `${name} answers`);
  }
  assert.ok(Object.values(poked).reduce((a, b) => a + b, 0) > 100, JSON.stringify(poked));
  const training = await state(page, 'training');
  assert.ok([8, 16, 32, 64].includes(training.width), `width ${training.width}`);
  assert.ok(training.epochs >= 1 && training.epochs <= 30, `epochs ${training.epochs}`);
  assert.ok(Number.isInteger(training.seed) && training.seed >= 0 && training.seed <= 2147483647, `seed ${training.seed}`);
  const example = await state(page, 'worked-example');
  assert.ok(example.H >= 1 && example.H <= 4096, `H ${example.H}`);
  const alignment = await state(page, 'alignment');
  assert.ok(!alignment.message.includes('\ufffd'), alignment.message);
  assert.deepEqual(problems, []);
  await context.close();
});

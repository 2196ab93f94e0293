// tests/browser/route.test.mjs — the ten-minute route at the top of the article (nav#route) and
// its table of contents. Each step of the route is one sentence with one ordinary link, a query
// of figure URL keys and a #figure anchor; followed, the link opens that figure in the state its
// sentence promises, with no setting refused. The contents reach every figure of the article
// (the heading each figure sits under is listed), and every contents link lands on an element.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openWatched, settled, state, until, useBrowser } from './helpers.mjs';

const env = useBrowser({ ownContexts: true });

// What each step promises, read from its figure's state once the figure has what it needs.
// Keyed by the figure the link's anchor holds.
const promises = {
  // Step 3 of 4, the weighted sum: every weight positive, together 1, so the context is inside
  // the triangle of the three states.
  'worked-example': {
    ready: (s) => s.step === 3,
    check: (s) => {
      assert.equal(s.step_name.toLowerCase(), 'weighted sum');
      assert.equal(s.weights.length, 3);
      assert.ok(s.weights.every((w) => w > 0), JSON.stringify(s.weights));
      assert.ok(Math.abs(s.weights.reduce((a, b) => a + b, 0) - 1) < 1e-9);
    },
  },
  // The pair on the dates at width 32, not yet trained: the reader presses Train.
  training: {
    ready: (s) => s.width === 32,
    check: (s) => {
      assert.equal(s.task, 'dates');
      assert.equal(s.model, 'attention');
      assert.equal(s.running, false);
    },
  },
  // The native sweep: attention gets almost no date right at 8 units and every one at 64; the
  // plain model in the views keeps the year and is at chance or below on the day's digits.
  sweep: {
    ready: (s) => s.views !== null && s.cells.some((c) => c.origin === 'native'),
    check: (s) => {
      const native = (model, width) => s.cells.find((c) => c.origin === 'native' && c.model === model && c.width === width);
      assert.ok(native('attention', 8).exact < 0.01, JSON.stringify(native('attention', 8)));
      assert.equal(native('attention', 64).exact, 1);
      const { plain_per_position: plain, chance_per_position: chance } = s.views;
      for (const t of [0, 1, 2, 3]) assert.ok(plain[t] >= 0.99, `the year's digit ${t + 1}: ${plain[t]}`);
      for (const t of [8, 9]) assert.ok(plain[t] <= chance[t] + 0.01, `the day's digit ${t - 7}: ${plain[t]} against chance ${chance[t]}`);
    },
  },
  // The reversal, read under teacher forcing: the rows' peaks are almost never on the sure link
  // and almost always one position from it.
  checked: {
    ready: (s) => s.task === 'reversal' && s.weights.length > 0 && s.forced,
    check: (s) => {
      const sure = new Map(s.links.filter((l) => l.sure).map((l) => [l.output, l.input]));
      let on = 0, near = 0;
      for (const [row, input] of sure) {
        const weights = s.weights[row];
        const peak = weights.indexOf(Math.max(...weights));
        if (peak === input) on++;
        else if (Math.abs(peak - input) === 1) near++;
      }
      assert.ok(sure.size >= 8, `${sure.size} linked rows`);
      assert.ok(near >= 0.75 * sure.size && on <= 0.25 * sure.size, `of ${sure.size} rows: ${on} on the link, ${near} one off`);
      console.log(`# reversal example ${s.example}: of ${sure.size} rows, ${on} peak on the link, ${near} one position off`);
    },
  },
  // The lesson's string with the day's first digit (step 8) moved wholly onto position 22, the
  // year's first 7: the model writes neither the 7 it was sent to nor the right digit.
  alignment: {
    ready: (s) => s.weights.length === 10 && s.moved !== null,
    check: (s) => {
      assert.equal(s.input[22], '7');
      assert.deepEqual(s.move, { step: 8, first: 22, last: 22 });
      assert.equal(s.selected_output, 8);
      assert.equal(s.moved.error, '');
      assert.equal(s.moved.weights[8][22], 1);
      assert.equal(s.output, s.target, 'unmoved, the shipped model writes the date right');
      assert.ok(s.moved.changed.includes(8), `step 8 changed: ${s.output} → ${s.moved.output}`);
      assert.ok(![s.input[22], s.target[8]].includes(s.moved.output[8]), `step 8 wrote ${s.moved.output[8]}`);
      console.log(`# ${s.input}: ${s.output} → ${s.moved.output} with step 8 on position 22`);
    },
  },
  // The Transformer reading the first encoder state only: every row of its map is weight 1 on
  // position 0.
  'transformer-maps': {
    ready: (s) => s.memory === 'first' && s.cross_mean.length === 10,
    check: (s) => {
      for (const row of s.cross_mean) {
        assert.equal(row[0], 1);
        assert.ok(row.slice(1).every((w) => w === 0));
      }
    },
  },
};

test('each step of the ten-minute route opens its figure in the state it promises', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const { page, problems } = await openWatched(context, env.url);
  const steps = await page.evaluate(() => [...document.querySelectorAll('#route > ol > li')].map((li) => ({
    text: li.textContent.replace(/\s+/g, ' ').trim(),
    links: [...li.querySelectorAll('a')].map((a) => a.getAttribute('href')),
  })));
  const keys = await page.evaluate(() => window.lookback.urlKeys());  // { figure: [its URL keys] }
  assert.ok(steps.length >= 4 && steps.length <= 8, `${steps.length} steps`);
  await page.close();

  const opened = new Set();
  for (const { text, links } of steps) {
    // One sentence, one link: an anchor on a figure, and a query of that figure's own keys.
    assert.equal(links.length, 1, text);
    assert.equal((text.match(/[.!?](\s|$)/g) ?? []).length, 1, `one sentence: ${text}`);
    const href = new URL(links[0], env.url);
    assert.match(href.hash, /^#[\w-]+$/, links[0]);

    const { page: step, problems: stepProblems } = await openWatched(context, href.href);
    const name = await step.evaluate((id) => document.getElementById(id)?.querySelector('canvas[data-figure]')?.dataset.figure, href.hash.slice(1));
    assert.ok(name in promises, `${links[0]}: its anchor holds a figure with a promise (${name})`);
    for (const key of href.searchParams.keys()) assert.ok(keys[name].includes(key), `${key} is a URL key of ${name}`);
    opened.add(name);
    await step.locator(`canvas[data-figure="${name}"]`).scrollIntoViewIfNeeded();
    await until(`${name} as ${links[0]} promises`, async () => promises[name].ready(await state(step, name)), 60000);
    await settled(step, name);
    const s = await state(step, name);
    assert.deepEqual(s.url_messages ?? [], [], `${links[0]}: no setting refused`);
    promises[name].check(s);
    assert.deepEqual(stepProblems, [], links[0]);
    await step.close();
  }
  assert.equal(opened.size, steps.length, 'each step opens a different figure');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the contents reach every figure, and every contents link lands', async () => {
  const context = await env.browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto(env.url);
  const { dangling, unlisted, figures } = await page.evaluate(() => {
    const contents = [...document.querySelectorAll('nav.toc:not(#route) a')].map((a) => a.getAttribute('href').slice(1));
    const dangling = contents.filter((id) => !document.getElementById(id));
    // The heading a figure sits under: the nearest h2 or h3 before it (an h2's section id counts).
    const headings = [...document.querySelectorAll('article section h2, article section h3')];
    const unlisted = [];
    const figures = [...document.querySelectorAll('article figure.figure')];
    for (const figure of figures) {
      const before = headings.filter((h) => h.compareDocumentPosition(figure) & Node.DOCUMENT_POSITION_FOLLOWING).at(-1);
      const ids = [before.id, before.tagName === 'H2' ? before.closest('section').id : null];
      if (!ids.some((id) => id && contents.includes(id))) unlisted.push(`${figure.id} under "${before.textContent.trim()}"`);
    }
    return { dangling, unlisted, figures: figures.length };
  });
  assert.ok(figures >= 10, `${figures} figures`);
  assert.deepEqual(dangling, [], 'contents links to nothing');
  assert.deepEqual(unlisted, [], 'figures whose heading the contents do not list');
  await context.close();
});

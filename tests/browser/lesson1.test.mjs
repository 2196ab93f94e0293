// tests/browser/lesson1.test.mjs — the lesson's first part as a reader uses it: the worked
// example's stepper (buttons and arrow keys), dragging the decoder state with real mouse events,
// the scorer switch, the URL that reproduces a view (and a bad URL that does not crash it), the
// bottleneck diagram's boxes, and the self-check. Numbers the figures show are checked against
// an independent computation here, not against the core's own.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clickWidget, openWatched, rect, settled, state, until, useBrowser } from './helpers.mjs';

const figure = 'worked-example';
const env = useBrowser({ ownContexts: true });

// --- an independent attention step (plain JS, double precision) ---------------------------
const dot = (a, b) => a.reduce((sum, x, i) => sum + x * b[i], 0);
const matvec = (M, x) => M.map((row) => dot(row, x));
function step(scorer, s, hs, params = {}) {
  const score = (h) => {
    if (scorer === 'dot') return dot(s, h);
    if (scorer === 'general') return dot(s, matvec(params.W, h));
    const a = matvec(params.W_d, s), b = matvec(params.W_e, h);
    return params.v.reduce((sum, v, k) => sum + v * Math.tanh(a[k] + b[k]), 0);
  };
  const scores = hs.map(score);
  const exps = scores.map(Math.exp);
  const denominator = exps.reduce((x, y) => x + y, 0);
  const weights = exps.map((e) => e / denominator);
  const context = s.map((_, d) => hs.reduce((sum, h, i) => sum + weights[i] * h[d], 0));
  return { scores, exps, denominator, weights, context };
}
function assertClose(actual, expected, tolerance, what) {
  const a = [actual].flat(2), e = [expected].flat(2);
  assert.equal(a.length, e.length, `${what}: length`);
  a.forEach((x, i) => assert.ok(Math.abs(x - e[i]) <= tolerance, `${what}[${i}]: ${x} vs ${e[i]}`));
}
const seed = {
  scores: [0.9, 0.2, 1.1], exps: [2.460, 1.221, 3.004], denominator: 6.685,
  weights: [0.368, 0.183, 0.449], context: [0.817, 0.632],
};
function assertSeedNumbers(s, where) {
  assertClose(s.scores, seed.scores, 5e-4, `${where} scores`);
  assertClose(s.exps, seed.exps, 5e-4, `${where} exps`);
  assertClose(s.denominator, seed.denominator, 5e-4, `${where} denominator`);
  assertClose(s.weights, seed.weights, 5e-4, `${where} weights`);
  assertClose(s.context, seed.context, 5e-4, `${where} context`);
}

async function openFigure(context, name = figure, query = '') {
  const watched = await openWatched(context, env.url + query);
  await watched.page.locator(`canvas[data-figure="${name}"]`).scrollIntoViewIfNeeded();
  await settled(watched.page, name);
  return watched;
}
const stepOf = async (page) => (await state(page, figure)).step;

test('the stepper visits the four steps, with the seed\'s numbers at each', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const { page, problems } = await openFigure(context);
  const names = ['score', 'softmax', 'weighted sum', 'predict'];
  for (let k = 1; k <= 4; k++) {
    const s = await state(page, figure);
    assert.equal(s.step, k);
    assert.equal(s.step_name, names[k - 1]);
    assert.equal(s.scorer, 'dot');
    assert.deepEqual(s.s, [0.9, 0.2]);
    assert.deepEqual(s.encoder_states, [[1, 0], [0, 1], [1, 1]]);
    assertSeedNumbers(s, `step ${k}`);
    const text = await page.locator(`[data-figure-alt="${figure}"]`).textContent();
    assert.ok(text.includes(`Step ${k} of 4`), `the text alternative follows the step: ${text.slice(0, 80)}`);
    await clickWidget(page, figure, 'next');
    if (k < 4) await until(`step ${k + 1}`, async () => (await stepOf(page)) === k + 1);
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
  assert.equal(await stepOf(page), 4, 'Next stops at the last step');
  await clickWidget(page, figure, 'previous');
  await until('step 3', async () => (await stepOf(page)) === 3);
  assert.deepEqual(problems, []);
  await context.close();
});

test('the arrow keys step once the figure has focus', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const { page, problems } = await openFigure(context);
  await clickWidget(page, figure, 'description');  // focuses the canvas, touches nothing
  await page.keyboard.press('ArrowRight');
  await until('step 2', async () => (await stepOf(page)) === 2);
  await page.keyboard.press('ArrowRight');
  await until('step 3', async () => (await stepOf(page)) === 3);
  await page.keyboard.press('ArrowLeft');
  await until('back to step 2', async () => (await stepOf(page)) === 2);
  assert.deepEqual(problems, []);
  await context.close();
});

test('dragging s with the mouse changes the weights and the context to the softmax of the new scores', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const { page, problems } = await openFigure(context);
  const before = await state(page, figure);
  const r = await rect(page, figure, 'point-s');
  const x = r.x + r.width / 2, y = r.y + r.height / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  await page.mouse.move(x - 40, y - 25, { steps: 5 });
  await until('s to follow the mouse', async () => (await state(page, figure)).dragging === 's');
  await page.mouse.move(x - 90, y - 70, { steps: 8 });
  await page.mouse.up();
  await until('the drag to end', async () => (await state(page, figure)).dragging === '');
  await settled(page, figure);

  const after = await state(page, figure);
  assert.notDeepEqual(after.s, before.s, 's moved');
  assert.ok(after.s[0] < before.s[0] && after.s[1] > before.s[1], `s moved left and up: ${after.s}`);
  assert.ok(Math.abs(after.weights[0] - before.weights[0]) > 0.01, 'the weights changed');
  const expected = step('dot', after.s, after.encoder_states);
  assertClose(after.scores, expected.scores, 1e-9, 'scores');
  assertClose(after.weights, expected.weights, 1e-9, 'weights = softmax(scores)');
  assertClose(after.context, expected.context, 1e-9, 'context = Σ α h');
  assertClose(after.weights.reduce((a, b) => a + b, 0), 1, 1e-12, 'weights sum to 1');
  const text = await page.locator(`[data-figure-alt="${figure}"]`).textContent();
  assert.ok(text.includes(after.weights[0].toFixed(3)), 'the text alternative shows the new weights');

  await clickWidget(page, figure, 'reset');
  await until('Reset', async () => (await state(page, figure)).s[0] === 0.9);
  assertSeedNumbers(await state(page, figure), 'after Reset');
  assert.deepEqual(problems, []);
  await context.close();
});

test('the scorer switch recomputes the table, and the parameter counts follow H', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const { page, problems } = await openFigure(context);
  let s = await state(page, figure);
  assert.deepEqual(s.parameter_counts, { dot: 0, general: 64 * 64, additive: 2 * 64 * 64 + 64 });

  await clickWidget(page, figure, 'scorer-additive');
  await until('additive', async () => (await state(page, figure)).scorer === 'additive');
  s = await state(page, figure);
  const additive = step('additive', s.s, s.encoder_states, s.params);
  assertClose(s.scores, additive.scores, 1e-9, 'additive scores');
  assertClose(s.weights, additive.weights, 1e-9, 'additive weights');

  await settled(page, figure);  // the switch re-lays the figure out: click where it now is
  await clickWidget(page, figure, 'scorer-general');
  await until('general', async () => (await state(page, figure)).scorer === 'general');
  s = await state(page, figure);
  assertClose(s.weights, step('general', s.s, s.encoder_states, s.params).weights, 1e-9, 'general weights');

  // Type a width into the H field: its spin button, as a keyboard reads it.
  await settled(page, figure);
  const width = page.getByRole('group', { name: /^Figure 2/ }).getByRole('spinbutton', { name: 'width H' });
  await width.fill('128');
  await width.press('Enter');
  await until('H = 128', async () => (await state(page, figure)).H === 128);
  s = await state(page, figure);
  assert.deepEqual(s.parameter_counts, { dot: 0, general: 128 * 128, additive: 2 * 128 * 128 + 128 });
  assert.deepEqual(problems, []);
  await context.close();
});

test('the URL reproduces the view, and a bad URL gets a message and the defaults', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const { page, problems } = await openFigure(context);
  const r = await rect(page, figure, 'point-h2');
  await page.mouse.move(r.x + r.width / 2, r.y + r.height / 2);
  await page.mouse.down();
  await page.mouse.move(r.x + 60, r.y + 30, { steps: 6 });
  await page.mouse.up();
  await clickWidget(page, figure, 'next');
  await until('step 2', async () => (await stepOf(page)) === 2);
  await clickWidget(page, figure, 'next');
  await until('step 3', async () => (await stepOf(page)) === 3);
  await settled(page, figure);  // the step's text may re-flow what lies below it
  await clickWidget(page, figure, 'scorer-general');
  await until('the URL to be written', async () => {
    const url = new URL(page.url());
    return url.searchParams.get('we.step') === '3' && url.searchParams.has('we.h2') && url.searchParams.get('we.scorer') === 'general';
  });
  const view = await state(page, figure);
  const link = page.url();

  const second = await openFigure(context, figure, new URL(link).search);
  const reopened = await state(second.page, figure);
  for (const key of ['step', 'scorer', 's', 'encoder_states', 'weights', 'context']) {
    assert.deepEqual(reopened[key], view[key], `${key} survives the link`);
  }
  assert.deepEqual(reopened.url_messages, []);

  const bad = await openFigure(context, figure, '?we.s=abc&we.step=9&we.scorer=cosine&we.h1=1,2,3&other=kept');
  const fallback = await state(bad.page, figure);
  for (const part of ["we.s='abc'", "we.step='9'", "we.scorer='cosine'", "we.h1='1,2,3'"]) {
    assert.ok(fallback.url_messages.some((m) => m.includes(part)), `a message names ${part}: ${fallback.url_messages}`);
  }
  assert.equal(fallback.step, 1);
  assert.equal(fallback.scorer, 'dot');
  assertSeedNumbers(fallback, 'defaults after a bad URL');
  const text = await bad.page.locator(`[data-figure-alt="${figure}"]`).textContent();
  assert.ok(text.includes('not usable'), 'the text alternative carries the message');
  assert.equal(new URL(bad.page.url()).searchParams.get('other'), 'kept', 'other parameters are left alone');

  assert.deepEqual([...problems, ...second.problems, ...bad.problems], []);
  await context.close();
});

test('clicking a box of the bottleneck diagram explains it', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const { page, problems } = await openFigure(context, 'bottleneck');
  await clickWidget(page, 'bottleneck', 'plain-h4');
  await until('h4 selected', async () => (await state(page, 'bottleneck')).selected === 'plain-last');
  let text = await page.locator('[data-figure-alt="bottleneck"]').textContent();
  assert.ok(text.includes('The only thing the decoder receives'), text);
  await clickWidget(page, 'bottleneck', 'attn-softmax');
  await until('softmax selected', async () => (await state(page, 'bottleneck')).selected === 'attn-softmax');
  text = await page.locator('[data-figure-alt="bottleneck"]').textContent();
  assert.ok(text.includes('add up to 1'), text);
  assert.deepEqual(problems, []);
  await context.close();
});

test('self-check: a right and a wrong concept answer are marked so, by mouse and by keyboard', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const { page, problems } = await openWatched(context, env.url);
  await page.locator('#q-problem input[value="b"]').check();
  await page.locator('#q-problem button[type="submit"]').click();
  assert.equal(await page.locator('#q-problem').getAttribute('data-result'), 'right');
  assert.match(await page.locator('#q-problem .verdict').textContent(), /Right/);
  assert.equal(await page.locator('#q-problem details').evaluate((d) => d.open), true, 'the explanation opens');

  // Keyboard only: focus the first choice, arrow to the second (a wrong one), Enter submits.
  await page.locator('#q-weight input[value="a"]').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  assert.equal(await page.locator('#q-weight').getAttribute('data-result'), 'wrong');
  assert.match(await page.locator('#q-weight .verdict').textContent(), /answer is c/);
  assert.equal(await page.locator('#q-weight label.is-answer input').getAttribute('value'), 'c');

  const score = page.locator('.quiz-score');
  assert.equal(await score.getAttribute('data-right'), '1');
  assert.equal(await score.getAttribute('data-answered'), '2');
  assert.deepEqual(problems, []);
  await context.close();
});

test('self-check: computations come with fresh numbers and the core accepts an answer within tolerance', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const { page, problems } = await openWatched(context, env.url);
  await page.waitForSelector('#self-check[data-computations="ready"]');

  // A dot score: parse the numbers of the prompt, compute it here, answer a little off.
  const prompt = await page.locator('#c-dot .prompt').textContent();
  const [s, h] = [...prompt.matchAll(/\((-?\d+), (-?\d+), (-?\d+)\)/g)].map((m) => m.slice(1).map(Number));
  assert.ok(s && h, `two vectors in: ${prompt}`);
  assert.match(prompt, /±0\.01/, 'the tolerance is stated');
  const answer = dot(s, h);
  await page.locator('#c-dot input').fill(String(answer + 0.004));
  await page.locator('#c-dot input').press('Enter');
  await until('a verdict', async () => (await page.locator('#c-dot').getAttribute('data-result')) !== null);
  assert.equal(await page.locator('#c-dot').getAttribute('data-result'), 'right');

  // A context vector, answered wrong, then unreadable input.
  const contextPrompt = await page.locator('#c-context .prompt').textContent();
  const [hs, alphas] = [/h = (-?\d+), (-?\d+), (-?\d+)/, /α = (\d\.\d), (\d\.\d), (\d\.\d)/]
    .map((pattern) => contextPrompt.match(pattern).slice(1).map(Number));
  const c = dot(hs, alphas);
  await page.locator('#c-context input').fill((c + 0.5).toFixed(2));
  await page.locator('#c-context button[type="submit"]').click();
  assert.equal(await page.locator('#c-context').getAttribute('data-result'), 'wrong');
  await page.locator('#c-context input').fill('five');
  await page.locator('#c-context button[type="submit"]').click();
  assert.equal(await page.locator('#c-context').getAttribute('data-result'), 'invalid');
  assert.match(await page.locator('#c-context .verdict').textContent(), /not part of a decimal number/);

  // New numbers: the prompt changes (fresh numbers every time; retry a few times for a repeat).
  let fresh = contextPrompt;
  for (let i = 0; i < 5 && fresh === contextPrompt; i++) {
    await page.locator('#c-context .fresh').click();
    fresh = await page.locator('#c-context .prompt').textContent();
  }
  assert.notEqual(fresh, contextPrompt);
  assert.equal(await page.locator('#c-context').getAttribute('data-result'), null);

  // A bilinear score at the keyboard: Tab from the field to Check, Enter.
  const bilinear = await page.locator('#c-bilinear .prompt').textContent();
  const [bs, bh] = [...bilinear.matchAll(/\((-?\d+), (-?\d+)\)/g)].map((m) => m.slice(1).map(Number));
  const W = [...bilinear.match(/W = \[\[(-?\d+), (-?\d+)\], \[(-?\d+), (-?\d+)\]\]/).slice(1).map(Number)];
  const expected = dot(bs, matvec([[W[0], W[1]], [W[2], W[3]]], bh));
  await page.locator('#c-bilinear input').fill(String(expected));
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  assert.equal(await page.locator('#c-bilinear').getAttribute('data-result'), 'right');

  // An additive score with the identity for both matrices: vᵀ tanh(h + s), to two decimals.
  const additive = await page.locator('#c-additive .prompt').textContent();
  const [hv, sv, vv] = ['h', 's', 'v'].map((name) =>
    additive.match(new RegExp(`${name} = \\((-?\\d+), (-?\\d+)\\)`)).slice(1).map(Number));
  const e = vv[0] * Math.tanh(hv[0] + sv[0]) + vv[1] * Math.tanh(hv[1] + sv[1]);
  await page.locator('#c-additive input').fill(e.toFixed(2));
  await page.locator('#c-additive button[type="submit"]').click();
  assert.equal(await page.locator('#c-additive').getAttribute('data-result'), 'right');
  assert.equal(await page.locator('.quiz-score').getAttribute('data-right'), '3');
  assert.deepEqual(problems, []);
  await context.close();
});

test('without JavaScript the article reads and each figure shows a note', async () => {
  const context = await env.browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 800 } });
  const page = await context.newPage();
  await page.goto(env.url);
  const headings = await page.locator('article h2').allTextContents();
  for (const title of ['The bottleneck', 'The mechanism in four steps', 'Scoring functions', 'Pitfalls', 'Self-check', 'References']) {
    assert.ok(headings.some((h) => h.startsWith(title)), `section ${title}`);
  }
  // Each figure as a reader scrolls to it (sections away from the viewport are not rendered).
  for (const figure of ['#bottleneck-figure', '#worked-example-figure']) {
    await page.locator(figure).scrollIntoViewIfNeeded();
    assert.equal(await page.locator(`${figure} canvas`).isVisible(), false, `${figure}: no empty canvas`);
    assert.equal(await page.locator(`${figure} .figure-note`).isVisible(), true, `${figure}: a note instead`);
  }
  assert.ok((await page.locator('.katex').count()) > 20, 'the math is already HTML');
  await context.close();
});

// tests/browser/keyboard.test.mjs — every figure without a mouse: the lesson's tasks
// done with the keyboard alone on the figures' mirrors (web/page/mirror.js), each control found
// by its role and name inside its figure's group, as a screen reader user finds it, and each
// task checked by the figure's own state afterwards: step the worked example; change the
// training's settings, start, pause and step it; run the width sweep; pick a row of the map and
// read its weights; move a step's attention and hear the new output; show a random and a typed
// example (and hear a refused one); switch the map check's task; blank an input; rank the
// results; train the Transformers; pick a head and move it; answer a self-check question. Then
// the accessibility tree as Chromium exposes it: every control of every figure has a role and a
// name, and a value where it carries one; every grid's cells have names; Tab walks a figure's
// controls in order and leaves it at both ends. And the focus ring, screenshotted at 1280 and
// 390 px (build/screenshots/focus-ring-*.png). One page load for all of it (390 px by resizing it).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { frames, openWatched, screenshotPath, settled, state, until, useBrowser } from './helpers.mjs';

const env = useBrowser({ folder: process.env.LOOKBACK_SITE || undefined });
let context, page, problems;

// The one page the tests share, opened by whichever runs first (a `before` hook here ran ahead of
// useBrowser's, before the browser was up).
async function opened() {
  if (!page) {
    context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
    ({ page, problems } = await openWatched(context, env.url));
  }
  return page;
}
after(async () => { await context?.close(); });

// A figure's controls, as the accessibility tree groups them: "Figure 3: …".
const figure = (title) => page.getByRole('group', { name: new RegExp(`^${title}:`) });
// Waits until figure `name` has drawn and its mirror holds its controls (a far section draws
// only once it nears the viewport).
async function drawn(name) {
  await opened();
  await page.locator(`canvas[data-figure="${name}"]`).scrollIntoViewIfNeeded();
  await until(`${name}'s controls`, () => page.evaluate((n) => {
    const mirror = document.querySelector(`canvas[data-figure="${n}"]`).previousElementSibling;
    return mirror.classList.contains('figure-mirror') && !mirror.hidden && mirror.childElementCount > 0;
  }, name), 30000);
}
const waitFor = (what, name, predicate, timeout = 20000) => until(what, async () => predicate(await state(page, name)), timeout);
// Focuses `locator` (focus() scrolls it into view, as Tab does) and presses `keys` in turn.
async function keys(locator, ...pressed) {
  await locator.focus();
  for (const key of pressed) await page.keyboard.press(key);
}
// A paused pair's steps once the batches the workers were on have come back.
async function settledSteps(name) {
  let last = await state(page, name);
  for (;;) {
    await page.waitForTimeout(400);
    const now = await state(page, name);
    if (now.runs.every((r, i) => r.steps === last.runs[i].steps)) return now;
    last = now;
  }
}
const status = (name) => page.locator(`canvas[data-figure="${name}"] + [role="status"]`);
const focusedName = () => page.evaluate(() => document.activeElement.getAttribute('aria-label') ?? document.activeElement.textContent);

// The node Chromium's accessibility tree gives a screen reader for the element `selector` finds,
// and one of its properties ('live', 'busy' (1 when busy), 'invalid', 'valuemin'…).
async function axNode(selector) {
  const cdp = await context.newCDPSession(page);
  try {
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
    if (!nodeId) throw new Error(`no element ${selector}`);
    return (await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false })).nodes[0];
  } finally {
    await cdp.detach();
  }
}
const axProperty = (node, name) => node.properties?.find((p) => p.name === name)?.value.value;
// What figure `name`'s status region said last: each announcement is a line of its own (mirror.js).
const statusText = (name) => status(name).evaluate((e) => e.lastElementChild?.textContent ?? '');
const statusLines = (name) => status(name).evaluate((e) => e.childElementCount);
// Waits until figure `name`'s status region says exactly `text`.
const saysNow = (name, text) => until(`${name} to say "${text}"`, async () => (await statusText(name)) === text);

// First, before anything draws Figure 2: Tab onto a figure that has not drawn yet hears that it is
// starting (not that it needs JavaScript), and the focus goes on to its first control while the
// canvas is still in the tree (a focused node removed first made Orca take the new focus silently).
test('a figure not drawn yet: its canvas says it is starting, then the focus moves on to its first control', async () => {
  await opened();
  assert.equal(await frames(page, 'worked-example'), 0, 'Figure 2 has not drawn yet');
  await page.evaluate(() => {
    const canvas = document.querySelector('canvas[data-figure="worked-example"]');
    window.focusedSince = [];
    document.addEventListener('focusin', (event) => window.focusedSince.push({
      on: event.target === canvas ? 'canvas' : event.target.getAttribute('aria-label') ?? event.target.textContent,
      canvasHidden: canvas.getAttribute('aria-hidden'),
      description: document.getElementById(canvas.getAttribute('aria-describedby')).textContent.trim(),
    }));
  });
  await page.keyboard.press('Shift');  // the keyboard's focus, as Tab gives it (:focus-visible)
  await page.locator('canvas[data-figure="worked-example"]').focus();
  await until('the focus on the first control', () => page.evaluate(() => window.focusedSince.length >= 2), 20000);
  const [onCanvas, onControl] = await page.evaluate(() => window.focusedSince);
  assert.deepEqual(onCanvas, { on: 'canvas', canvasHidden: null, description: 'The figure is starting.' });
  assert.equal(onControl.on, 'Previous step');
  assert.equal(onControl.canvasHidden, null, 'the canvas leaves the tree after the focus has moved');
  const focused = await axNode('.figure-mirror:has(+ canvas[data-figure="worked-example"]) :focus');
  assert.equal(focused.role.value, 'button');
  assert.equal(focused.name.value, 'Previous step');
  assert.equal(axProperty(focused, 'focused'), true);
});

test('Figure 2: Next step, from the keyboard, steps the worked example', async () => {
  await drawn('worked-example');
  const before = (await state(page, 'worked-example')).step;
  const next = figure('Figure 2').getByRole('button', { name: 'Next step' });
  await keys(next, 'Enter');
  await waitFor('the next step', 'worked-example', (s) => s.step === before + 1);
  // Each step is said once, with its numbers in one sentence.
  await saysNow('worked-example', 'Step 2 of 4, softmax: weights 0.368, 0.183 and 0.449, from exponentials summing to 6.685.');
  await page.keyboard.press('Space');
  await waitFor('the step after', 'worked-example', (s) => s.step === before + 2);
  await saysNow('worked-example', 'Step 3 of 4, weighted sum: context c = (0.817, 0.632), from weights 0.368, 0.183 and 0.449.');
});

// The temperature's float step (0.00999999977 from 0.100000001) put the slider's value off the
// step's grid: Firefox said "invalid entry", Chromium snapped 1 to 0.999999981. On the grid, the
// value is the figure's to the step.
test('Figure 2: the temperature slider\'s value is on its step\'s grid, at 1 and at the square root of 2', async () => {
  const slider = '.figure-mirror:has(+ canvas[data-figure="worked-example"]) input[aria-label="temperature τ"]';
  // One step up, seen by the figure, then back: a wait for 1 alone would pass before the keys are taken.
  await keys(figure('Figure 2').getByRole('slider', { name: 'temperature τ' }), 'ArrowRight');
  await waitFor('temperature 1.01', 'worked-example', (s) => Math.abs(s.temperature - 1.01) < 1e-6);
  await page.keyboard.press('ArrowLeft');
  for (const [value, onGrid] of [[1, '1'], [Math.SQRT2, '1.41']]) {
    if (value !== 1) await keys(figure('Figure 2').getByRole('button', { name: 'τ = square root of d = square root of 2' }), 'Enter');
    await waitFor(`temperature ${value}`, 'worked-example', (s) => Math.abs(s.temperature - value) < 1e-9);
    await until('the slider described', async () => (await page.locator(slider).getAttribute('aria-valuetext')) === value.toFixed(2) &&
                                                    (await page.locator(slider).evaluate((e) => e.value)) === onGrid);
    assert.deepEqual(await page.locator(slider).evaluate((e) => [e.value, e.validity.valid, e.min, e.step]), [onGrid, true, '0.1', '0.01']);
    const node = await axNode(slider);
    assert.equal(axProperty(node, 'invalid'), 'false', `temperature ${value}: not invalid in the tree`);
    assert.equal(Math.fround(node.value.value), Math.fround(Number(onGrid)), 'the value the tree gives');
  }
});

test('Figure 3: the task, width, model, scorer, seed and epochs change from the keyboard', async () => {
  await drawn('training');
  const f = figure('Figure 3');
  const start = await state(page, 'training');
  await keys(f.getByRole('combobox', { name: 'task' }), 'ArrowDown');
  await waitFor('another task', 'training', (s) => s.task !== start.task);
  await page.keyboard.press('ArrowUp');
  await waitFor('the dates again', 'training', (s) => s.task === start.task);

  await keys(f.getByRole('combobox', { name: 'width' }), 'Home');
  await waitFor('width 8', 'training', (s) => s.width === 8);
  await page.keyboard.press('ArrowDown');
  await waitFor('width 16', 'training', (s) => s.width === 16);

  // The scorer of the attention model (Bahdanau's, next in the list, takes only its own).
  await keys(f.getByRole('combobox', { name: 'scorer' }), 'ArrowDown');
  await waitFor('another scorer', 'training', (s) => s.scorer !== start.scorer);
  await page.keyboard.press('ArrowUp');
  await waitFor('the scorer back', 'training', (s) => s.scorer === start.scorer);
  await keys(f.getByRole('combobox', { name: 'model' }), 'ArrowDown');
  await waitFor('another model', 'training', (s) => s.model !== start.model);

  const seed = f.getByRole('spinbutton', { name: 'seed' });
  await keys(seed, 'Control+A');
  await page.keyboard.type('7');
  await page.keyboard.press('Enter');
  await waitFor('seed 7', 'training', (s) => s.seed === 7);
  await page.keyboard.press('ArrowUp');
  await waitFor('seed 8', 'training', (s) => s.seed === 8);
  await page.keyboard.type('0');  // 80, taken when the reader leaves the field
  await page.keyboard.press('Tab');
  await waitFor('seed 80', 'training', (s) => s.seed === 80);

  await keys(f.getByRole('slider', { name: 'epochs' }), 'ArrowLeft');
  await waitFor('one epoch fewer', 'training', (s) => s.epochs === start.epochs - 1);
  await page.keyboard.press('Home');
  await waitFor('one epoch', 'training', (s) => s.epochs === 1);
});

// The nodes of Chromium's accessibility tree under the element `selector` finds, as a screen reader
// gets them (ignored ones left out).
async function axSubtree(selector) {
  const cdp = await context.newCDPSession(page);
  try {
    const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
    if (!nodeId) throw new Error(`no element ${selector}`);
    return (await cdp.send('Accessibility.queryAXTree', { nodeId })).nodes.filter((n) => !n.ignored);
  } finally {
    await cdp.detach();
  }
}

// A figure's choices are ARIA comboboxes, not <select>s. Chromium sent a selection event for a
// select's chosen option whenever the select entered its tree, and Orca said every select of a
// figure as it drew ("task combo box collapsed dates"); and a select changed by an arrow changed
// its menu, not the focused select, which Orca in Chromium let pass without a word. In Chromium's
// tree: a closed combobox holds no option (nothing selected to announce), its value is the chosen
// option; an arrow chooses the next option, which becomes the open listbox's active, selected
// option (the active descendant Orca says).
test('Figure 3: a combobox holds no option while closed; an arrow makes the chosen option the active one', async () => {
  await drawn('training');
  const mirror = '.figure-mirror:has(+ canvas[data-figure="training"])';
  const options = (nodes) => nodes.filter((n) => /option|menuitem/i.test(n.role?.value ?? '')).map((n) => `${n.role.value} ${n.name?.value}`);
  assert.deepEqual(options(await axSubtree(mirror)), [], 'no option in the tree while the comboboxes are closed');
  const width = figure('Figure 3').getByRole('combobox', { name: 'width' });
  await width.focus();
  const closed = await axNode(`${mirror} [aria-label="width"]`);
  assert.equal(closed.role.value, 'combobox');
  assert.equal(closed.value?.value, String((await state(page, 'training')).width));
  assert.equal(axProperty(closed, 'expanded'), false);
  await page.keyboard.press('Home');
  await waitFor('width 8', 'training', (s) => s.width === 8);
  await page.keyboard.press('ArrowDown');
  await waitFor('width 16', 'training', (s) => s.width === 16);
  const open = await axNode(`${mirror} [aria-label="width"]`);
  assert.equal(open.value?.value, '16');
  const active = open.properties?.find((p) => p.name === 'activedescendant')?.value.relatedNodes?.[0];
  assert.ok(active, 'the combobox has an active descendant');
  const option = await axNode(`[id="${await width.evaluate((c) => c.getAttribute('aria-activedescendant'))}"]`);
  assert.deepEqual([option.role.value, option.name.value, axProperty(option, 'selected')], ['option', '16', true]);
  assert.equal(options(await axSubtree(mirror)).length, await width.evaluate((c) => c.popup.childElementCount), 'the open listbox\'s options');
  await page.keyboard.press('Escape');
  const closedAgain = await axNode(`${mirror} [aria-label="width"]`);
  assert.deepEqual([axProperty(closedAgain, 'expanded'), closedAgain.properties?.some((p) => p.name === 'activedescendant')], [false, false], 'Escape closes it');
  await page.keyboard.press('ArrowUp');
  await waitFor('width 8 again', 'training', (s) => s.width === 8);
  // Leaving it closes it; its options leave the tree at the next key (until then Orca's focus may
  // still be on the last of them: mirror.js, closeCombo).
  await page.keyboard.press('Tab');
  assert.equal(await width.getAttribute('aria-expanded'), 'false');
  await page.keyboard.press('Shift');
  assert.deepEqual(options(await axSubtree(mirror)), [], 'no option in the tree once closed');
});

test('Figure 3: Train, Pause and Step from the keyboard', async () => {
  const f = figure('Figure 3');
  // As many epochs as the slider takes, so the Pause below lands while batches are left: with the
  // one epoch the test before set (94 batches at width 16), a loaded machine let a run train all
  // of them before Pause was pressed, and Step then had no batch to take (that run only finished
  // its held-out decodes), so "one step more" never came.
  await keys(f.getByRole('slider', { name: 'epochs' }), 'End');
  await waitFor('the most epochs', 'training', (s) => s.epochs >= 10);
  await keys(f.getByRole('button', { name: 'Train' }), 'Enter');
  await waitFor('training', 'training', (s) => s.running && s.runs.every((r) => r.steps >= 1), 30000);
  await saysNow('training', 'Training.');
  const group = '.figure-mirror:has(+ canvas[data-figure="training"])';
  await until('the figure busy', async () => Boolean(axProperty(await axNode(group), 'busy')));
  // The progress, as a progress bar with its value.
  const progress = await axNode(`${group} [role="progressbar"]`);
  assert.equal(progress.name.value, 'training progress');
  assert.equal(axProperty(progress, 'valuemin'), 0);
  assert.equal(axProperty(progress, 'valuemax'), 100);
  assert.match(String(progress.value.value), /^\d+$/);
  // Its value text (the tree over CDP leaves a progress bar's empty, so read from the element).
  assert.match(await page.locator(`${group} [role="progressbar"]`).getAttribute('aria-valuetext'), /^epoch \d+ of \d+, \d+%$/);
  await keys(f.getByRole('button', { name: 'Pause' }), 'Space');
  await waitFor('the pause', 'training', (s) => !s.running);
  // Said last: an epoch that ended in the same frame is said in the same announcement, before it
  // ("epoch 1 of 30: plain 0.0000 exact, bahdanau 0.0000 exact. Paused.").
  await until('training to say "Paused." last', async () => /(^|\. )Paused\.$/.test(await statusText('training')));
  const paused = await settledSteps('training');
  await keys(f.getByRole('button', { name: 'Step one batch' }), 'Enter');
  await waitFor('one step more', 'training', (s) => !s.running && s.runs.every((r, i) => r.steps === paused.runs[i].steps + 1), 15000);
});

test('Figure 4: the width sweep runs and pauses from the keyboard', async () => {
  await drawn('sweep');
  const f = figure('Figure 4');
  await keys(f.getByRole('slider', { name: 'epochs each' }), 'Home');
  await waitFor('one epoch each', 'sweep', (s) => s.epochs === 1);
  await keys(f.getByRole('button', { name: 'Run all eight' }), 'Enter');
  await waitFor('the sweep running', 'sweep', (s) => s.running);
  await saysNow('sweep', 'Sweep running.');
  const progress = await axNode('.figure-mirror:has(+ canvas[data-figure="sweep"]) [role="progressbar"]');
  assert.deepEqual([progress.name.value, axProperty(progress, 'valuemin'), axProperty(progress, 'valuemax')], ['sweep progress', 0, 100]);
  await keys(f.getByRole('button', { name: 'Pause the sweep' }), 'Enter');
  await waitFor('the sweep paused', 'sweep', (s) => !s.running);
  await saysNow('sweep', 'Sweep paused.');
});

test('Figure 5: a row of the map picked and its weights read; a step\'s attention moved and announced', async () => {
  await drawn('alignment');
  await waitFor('the shipped models', 'alignment', (s) => s.weights.length === 10, 30000);
  const f = figure('Figure 5');
  const map = f.getByRole('grid', { name: /^attention map/ });
  // The grid's one tab stop is the selected row's first cell; arrows walk the cells.
  await keys(map.locator('[role="gridcell"][tabindex="0"]'), 'ArrowDown', 'ArrowDown', 'ArrowDown', 'End', 'ArrowLeft');
  const cell = await focusedName();
  const s0 = await state(page, 'alignment');
  const j = s0.input.length - 2;
  assert.equal(cell, `output 3, '${s0.output[3]}'; input ${j}, '${s0.input[j]}'; weight ${s0.weights[3][j].toFixed(2)}`);
  await page.keyboard.press('Enter');
  await waitFor('output 3 selected', 'alignment', (s) => s.selected_output === 3);
  // The row chosen is said with its peak.
  const row = s0.weights[3], peak = row.indexOf(Math.max(...row));
  await saysNow('alignment', `output 3, '${s0.output[3]}': its peak is input ${peak}, '${s0.input[peak]}', weight ${row[peak].toFixed(2)}`);
  // Its weights, read as the bars' cells.
  const bars = f.getByRole('grid', { name: /^weights of output 3 over the input/ });
  await until('the bars of row 3', async () => (await bars.count()) === 1);
  const s = await state(page, 'alignment');
  const names = await bars.getByRole('gridcell').evaluateAll((cells) => cells.map((c) => c.getAttribute('aria-label')));
  assert.deepEqual(names.map((n) => n.match(/weight (\d\.\d\d)/)[1]), s.bars.map((w) => w.toFixed(2)));

  // Enter on a bar moves the step's attention there; the live region says what it writes now.
  await keys(bars.locator('[role="gridcell"][tabindex="0"]'), 'Home');
  for (let k = 0; k < 21; ++k) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await waitFor('the move', 'alignment', (m) => m.moved !== null, 20000);
  const moved = await state(page, 'alignment');
  assert.deepEqual(moved.move, { step: 3, first: 21, last: 21 });
  await until('the announcement', async () => (await statusText('alignment')).startsWith('step 3 moved onto input 21'));
  assert.equal(await statusText('alignment'),
               `step 3 moved onto input 21, '${s.input[21]}': the output now reads ${moved.moved.output}`);
  await keys(f.getByRole('button', { name: 'Reset the attention' }), 'Enter');
  await waitFor('the attention put back', 'alignment', (m) => m.move === null);
  // The same move again is said again: the bars keep their tab stop on the bar last focused.
  const said = await statusText('alignment');
  const lines = await statusLines('alignment');
  await keys(bars.locator('[role="gridcell"][tabindex="0"]'), 'Enter');
  await waitFor('the move again', 'alignment', (m) => m.moved !== null, 20000);
  await until('said again', async () => (await statusLines('alignment')) > lines && (await statusText('alignment')) === said);
  await keys(f.getByRole('button', { name: 'Reset the attention' }), 'Enter');
  await waitFor('the attention put back', 'alignment', (m) => m.move === null);

  // A span, as a drag across bars makes it: Shift+arrows spread it from the focused bar (the
  // bars' description says so), Enter moves the attention onto it evenly.
  assert.match(await bars.getAttribute('aria-description'), /Shift\+Left or Right Arrow first spreads a span of inputs/);
  await keys(bars.locator('[role="gridcell"][tabindex="0"]'), 'ArrowLeft', 'ArrowLeft', 'Shift+ArrowRight', 'Shift+ArrowRight');
  const spread = await bars.locator('[role="gridcell"][aria-selected="true"]').evaluateAll((cells) => cells.map((c) => Number(c.dataset.col)));
  assert.deepEqual(spread, [19, 20, 21]);
  await page.keyboard.press('Enter');
  await waitFor('the span moved', 'alignment', (m) => m.moved !== null && m.move?.first === 19, 20000);
  const span = await state(page, 'alignment');
  assert.deepEqual(span.move, { step: 3, first: 19, last: 21 });
  // Evenly: a third on each of the three inputs, nothing elsewhere.
  span.moved.weights[3].forEach((w, k) => assert.ok(Math.abs(w - (k >= 19 && k <= 21 ? 1 / 3 : 0)) < 1e-6, `weight ${k}: ${w}`));
  await until('the span said', async () => (await statusText('alignment')).startsWith('step 3 moved onto inputs 19\u201321'));
  assert.equal(await bars.locator('[role="gridcell"][aria-selected="true"]').count(), 0, 'the span ends with the move');
  await keys(f.getByRole('button', { name: 'Reset the attention' }), 'Enter');
  await waitFor('the attention put back', 'alignment', (m) => m.move === null);
});

// Orca, in browse mode, says the whole row of a table cell that the focus enters: the row's name if
// it has one, else every cell (Chromium read the 24 cells of a map's row on Tab into the map;
// Firefox, which names a row from its content, a name Orca does not say, read none). The row of a
// grid's one tab stop is named by that cell, in Chromium's tree, wherever the arrows leave it.
test('Figure 5: the row of the map\'s tab stop is named by that cell, so that entering the map says the cell', async () => {
  await drawn('alignment');
  await waitFor('the shipped models', 'alignment', (s) => s.weights.length === 10, 30000);
  const grid = '.figure-mirror:has(+ canvas[data-figure="alignment"]) [role="grid"][aria-label^="attention map"]';
  // (Chromium names the other rows from their content, which Orca does not say.)
  const stopRow = async () => (await axNode(`${grid} [role="row"]:has(> [role="gridcell"][tabindex="0"])`)).name?.value;
  const stop = () => page.locator(`${grid} [role="gridcell"][tabindex="0"]`).getAttribute('aria-label');
  assert.equal(await stopRow(), await stop());
  await keys(page.locator(`${grid} [role="gridcell"][tabindex="0"]`), 'ArrowDown', 'ArrowRight');
  assert.equal(await focusedName(), await stop());
  assert.equal(await stopRow(), await stop());
  await page.keyboard.press('ArrowUp');
  assert.equal(await stopRow(), await stop());
});

test('Figure 5: a random held-out example and a typed date, from the keyboard', async () => {
  const f = figure('Figure 5');
  // What the figure says the model writes (the line above its map).
  const writes = async () => {
    const s = await state(page, 'alignment');
    return `${s.model_label} writes ${s.output}${s.target ? (s.target === s.output ? ' (right)' : ` (the answer is ${s.target})`) : ''}`;
  };
  const before = await state(page, 'alignment');
  await keys(f.getByRole('button', { name: 'random held-out string' }), 'Enter');
  await waitFor('a held-out string', 'alignment', (s) => s.example >= 0 && s.input !== before.input);
  await until('what it writes, said', async () => (await statusText('alignment')) === (await writes()));
  // A date the models cannot read is refused, and the reason said; a good one is mapped, and what it writes said.
  const field = f.getByRole('textbox', { name: 'a date to map' });
  await keys(field, 'Control+A');
  await page.keyboard.type('19/3/1994!');
  await page.keyboard.press('Enter');
  await waitFor('the refusal', 'alignment', (s) => s.message !== '');
  await until('the refusal said', async () => (await statusText('alignment')) === (await state(page, 'alignment')).message);
  await keys(field, 'Control+A');
  await page.keyboard.type('The 4 of August, 2003');
  await page.keyboard.press('Enter');
  await waitFor('the typed date', 'alignment', (s) => s.input === 'the 4 of august, 2003' && s.output === '2003-08-04');
  await until('what it writes, said', async () => (await statusText('alignment')) === (await writes()));
});

test('Figure 5b: the map check switches to reversal and to translation by the arrow keys', async () => {
  await drawn('checked');
  const task = figure('Figure 5b').getByRole('radiogroup', { name: 'task' });
  await keys(task.getByRole('radio', { name: 'dates' }), 'ArrowRight');
  await waitFor('reversal', 'checked', (s) => s.task === 'reversal' && s.weights.length > 0, 30000);
  await page.keyboard.press('ArrowRight');
  await waitFor('translation', 'checked', (s) => s.task === 'translation' && s.weights.length > 0, 30000);
});

test('Figure 6: an input character blanked by its toggle button', async () => {
  await drawn('probes');
  const s = await state(page, 'probes');
  const blank = figure('Figure 6').getByRole('button', { name: `blank input 4, '${s.input[4]}'` });
  assert.equal(await blank.getAttribute('aria-pressed'), 'false');
  await keys(blank, 'Enter');
  await waitFor('input 4 blanked', 'probes', (p) => p.masked === 4 && p.masked_output !== '');
  await until('pressed', async () => (await blank.getAttribute('aria-pressed')) === 'true');
  const p = await state(page, 'probes');
  await until('the announcement', async () => (await statusText('probes')) === `input 4 blanked: the output reads ${p.masked_output}`);
});

test('Figure 7: the results ranked by a column from its header button', async () => {
  await drawn('results');
  const table = figure('Figure 7').getByRole('table');
  await keys(table.getByRole('button', { name: 'parameters' }), 'Enter');
  await waitFor('ranked by parameters', 'results', (s) => s.sort === 'parameters' && s.descending);
  await until('aria-sort', async () => (await table.getByRole('columnheader', { name: 'parameters' }).getAttribute('aria-sort')) === 'descending');
  // The new order is said, with its direction and the row now first.
  const first = (await state(page, 'results')).rows[0];
  await saysNow('results', `ranked by parameters, descending; first: ${first.model}, width ${first.width}, parameters ${first.parameters.toLocaleString('en-US')}`);
  // The header button keeps the focus through the table's rewrite: Enter again turns the order over.
  await page.keyboard.press('Enter');
  await waitFor('lowest first', 'results', (s) => s.sort === 'parameters' && !s.descending);
});

test('Figure 8: the Transformers train from the keyboard', async () => {
  await drawn('transformer-training');
  const f = figure('Figure 8');
  await keys(f.getByRole('combobox', { name: 'width' }), 'Home');
  await waitFor('the smallest width', 'transformer-training', (s) => s.width < 64);
  await keys(f.getByRole('slider', { name: 'epochs' }), 'Home');
  await waitFor('one epoch', 'transformer-training', (s) => s.epochs === 1);
  await keys(f.getByRole('button', { name: 'Train' }), 'Enter');
  // The epoch is said once it ends, with both runs' exact match as the state has them.
  await waitFor('the epoch', 'transformer-training', (s) => s.runs.length === 2 && s.runs.every((r) => r.epochs.length === 1), 90000);
  const done = await state(page, 'transformer-training');
  // With the end of training, in one text: a second written over the first would hide it.
  await saysNow('transformer-training', `epoch 1 of 1: first state ${done.runs[0].epochs[0].exact.toFixed(4)} exact, ` +
             `all states ${done.runs[1].epochs[0].exact.toFixed(4)} exact. Done after 1 epoch.`);
  await until('the text done', async () => (await page.locator('[data-figure-alt="transformer-training"] p').first().textContent()).endsWith('Done after 1 epoch.'));
  const group = '.figure-mirror:has(+ canvas[data-figure="transformer-training"])';
  const progress = await axNode(`${group} [role="progressbar"]`);
  assert.equal(progress.value.value, 100);
  assert.equal(await page.locator(`${group} [role="progressbar"]`).getAttribute('aria-valuetext'), 'done');
  assert.equal(Boolean(axProperty(await axNode(group), 'busy')), false, 'no longer busy');
});

test('Figure 9: a head of the Transformer map picked and its attention moved', async () => {
  await drawn('transformer-maps');
  await waitFor('the shipped Transformers', 'transformer-maps', (s) => s.cross_mean.length === 10, 30000);
  const f = figure('Figure 9');
  const heads = f.getByRole('radiogroup', { name: 'head shown' });
  await keys(heads.getByRole('radio', { checked: true }), 'ArrowRight', 'ArrowRight');
  await waitFor('head 2', 'transformer-maps', (s) => s.head === 2);
  const s = await state(page, 'transformer-maps');
  const bars = f.getByRole('grid', { name: /^weights of output 0 over the input/ });
  await keys(bars.locator('[role="gridcell"][tabindex="0"]'), 'End', 'Enter');
  const j = s.input.length - 1;
  await waitFor('the move', 'transformer-maps', (m) => m.moved !== null && m.move?.first === j, 20000);
  const moved = await state(page, 'transformer-maps');
  assert.equal(moved.head, 2);
  await until('the announcement', async () => (await statusText('transformer-maps')).startsWith('step 0 in head 2 moved onto'));
  assert.equal(await statusText('transformer-maps'),
               `step 0 in head 2 moved onto input ${j}, '${s.input[j]}': the output now reads ${moved.moved.output}`);
  // Spread over the last two inputs with Shift+Left from the last.
  await keys(f.getByRole('grid', { name: /^weights of output 0 over the input/ }).locator('[role="gridcell"][tabindex="0"]'), 'Shift+ArrowLeft', 'Enter');
  await waitFor('the span moved', 'transformer-maps', (m) => m.moved !== null && m.move?.first === j - 1, 20000);
  assert.deepEqual((await state(page, 'transformer-maps')).move, { step: 0, first: j - 1, last: j });
});

test('the self-check: a concept question answered from the keyboard, its verdict and score said', async () => {
  const form = page.locator('#q-problem');
  await keys(form.getByRole('radio').first(), 'ArrowDown');  // the second answer, b: the right one
  // The verdict's and the score's live regions are in the tree while empty: Firefox does not speak
  // a live region that appears with its text.
  for (const selector of ['#q-problem .verdict', '#self-check .quiz-score']) {
    let region;
    await until(`${selector} in the tree while empty`, async () => !(region = await axNode(selector)).ignored);
    assert.equal(axProperty(region, 'live'), 'polite', selector);
  }
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await until('the verdict', () => form.evaluate((f) => f.dataset.result === 'right'));
  assert.equal(await form.locator('.verdict').textContent(), 'Right.');
  assert.match(await page.locator('#self-check .quiz-score').textContent(), /^Your score so far: 1 of 1 concept questions/);
  assert.deepEqual(problems, []);
});

// The "as text" blocks are not live regions (rewritten whole, they buried the announcements): a
// figure's one live region is its status.
test('each figure says what changes through its status alone; its text alternative is not live', async () => {
  await page.evaluate(() => document.querySelectorAll('details.figure-text').forEach((d) => { d.open = true; }));
  for (const name of await page.evaluate(() => window.lookback.figures())) {
    await drawn(name);
    let live;  // once the section scrolled to is in the tree
    await until(`${name}'s status in the tree`, async () => (live = await axNode(`canvas[data-figure="${name}"] + [role="status"]`)).role.value === 'status');
    assert.equal(axProperty(live, 'live'), 'polite', `${name}: its status is`);
    const alternative = await axNode(`[data-figure-alt="${name}"]`);
    assert.equal(axProperty(alternative, 'live'), undefined, `${name}: its text alternative is not a live region`);
  }
});

// --- the accessibility tree, as Chromium gives it to a screen reader -------------------------

const named = new Set(['button', 'checkbox', 'radio', 'radiogroup', 'slider', 'spinbutton', 'combobox', 'textbox', 'grid', 'gridcell',
                       'table', 'columnheader']);
const valued = new Set(['slider', 'spinbutton', 'combobox']);

// Chromium builds the accessibility tree of a section only while it is rendered (content-visibility:
// auto skips far ones), so each figure is read in view: its group's subtree, as a screen reader gets it.
test('every figure\'s controls have a role and a name, and a value where they carry one; grids have named cells', async () => {
  const names = await (await opened()).evaluate(() => window.lookback.figures());
  const cdp = await context.newCDPSession(page);
  const { root } = await cdp.send('DOM.getDocument', { depth: 0 });
  const role = (n) => n.role?.value ?? '';
  const text = (n) => String(n.name?.value ?? '').trim();
  const problems = [];
  let controls = 0;
  for (const name of names) {
    await drawn(name);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: `.figure-mirror:has(+ canvas[data-figure="${name}"])` });
    const { nodes } = await cdp.send('Accessibility.queryAXTree', { nodeId });
    const group = nodes.find((n) => role(n) === 'group');
    if (!group || !/^Figure \d+b?: ./.test(text(group))) {
      problems.push(`${name}: not a group named as its figure: ${group && text(group)}`);
      continue;
    }
    const title = text(group).split(':')[0];
    // Each grid's rows × columns, as the figure described it.
    const sizes = await page.evaluate((n) => Object.fromEntries([...document.querySelector(`canvas[data-figure="${n}"]`).previousElementSibling
      .querySelectorAll('[role="grid"]')].map((g) => [g.getAttribute('aria-label'), g.getAttribute('aria-rowcount') * g.getAttribute('aria-colcount')])), name);
    const byId = new Map(nodes.map((n) => [n.nodeId, n]));
    const below = (n) => (n.childIds ?? []).flatMap((id) => (byId.has(id) ? [byId.get(id), ...below(byId.get(id))] : []));
    const inside = nodes.filter((n) => !n.ignored && named.has(role(n)));
    if (!inside.length) problems.push(`${title}: no control`);
    for (const n of inside) {
      const r = role(n);
      controls++;
      if (!text(n)) problems.push(`${title}: a ${r} without a name`);
      if (valued.has(r) && String(n.value?.value ?? '') === '') problems.push(`${title}: ${r} "${text(n)}" without a value`);
      if (r === 'grid') {
        const cells = below(n).filter((c) => role(c) === 'gridcell');
        const count = sizes[text(n)];
        if (!cells.length || cells.length !== count) problems.push(`${title}: grid "${text(n)}" has ${cells.length} cells of ${count}`);
        if (cells.some((c) => !text(c))) problems.push(`${title}: grid "${text(n)}" has a cell without a name`);
      }
      if (r === 'table' && !below(n).some((c) => role(c) === 'cell')) problems.push(`${title}: table "${text(n)}" has no cells`);
    }
    // The canvas itself is no longer a picture beside its controls.
    const canvas = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector: `canvas[data-figure="${name}"]` });
    const { nodes: [picture] } = await cdp.send('Accessibility.getPartialAXTree', { nodeId: canvas.nodeId, fetchRelatives: false });
    if (!picture.ignored) problems.push(`${title}: its canvas is still in the tree as ${role(picture)}`);
  }
  await cdp.detach();
  assert.deepEqual(problems, []);
  console.log(`# ${controls} named controls and cells in ${names.length} figures' groups`);
});

// The tab stops of figure `name` in reading order, as the mirror lays them out: each control's
// element; a radio group's checked option; a grid's one stop; a table's header buttons. In the page.
function stopsIn(name) {
  const root = document.querySelector(`canvas[data-figure="${name}"]`).previousElementSibling;
  return [...root.querySelectorAll('.figure-mirror-control')].flatMap((e) => {
    if (e.getAttribute('role') === 'radiogroup') return [e.querySelector('input:checked') ?? e.querySelector('input')];
    if (e.getAttribute('role') === 'grid') return [e.querySelector('[tabindex="0"]')];
    if (e.classList.contains('figure-mirror-table')) return [...e.querySelectorAll('button')];
    if (e.getAttribute('role') === 'progressbar') return [];
    return [e];
  });
}
// An element of figure `name` said as its control's id and its name; null outside the figure.
function said(name, e) {
  const root = document.querySelector(`canvas[data-figure="${name}"]`).previousElementSibling;
  return root.contains(e) && e.closest('[data-control]')
    ? `${e.closest('[data-control]').dataset.control} ${e.getAttribute('aria-label') ?? e.textContent}` : null;
}
const tabStops = (name) => page.evaluate(`(${stopsIn})(${JSON.stringify(name)}).map((e) => (${said})(${JSON.stringify(name)}, e))`);
const focused = (name) => page.evaluate(`(${said})(${JSON.stringify(name)}, document.activeElement)`);

test('Tab walks each figure\'s controls in reading order and leaves it at either end', async () => {
  const names = await page.evaluate(() => window.lookback.figures());
  for (const name of names) {
    await drawn(name);
    const stops = await tabStops(name);
    assert.ok(stops.length > 0, `${name} has tab stops`);
    // From the first control back out of the figure, then in again from the element before it.
    await (await page.evaluateHandle(`(${stopsIn})(${JSON.stringify(name)})[0]`)).focus();
    await page.keyboard.press('Shift+Tab');
    assert.equal(await focused(name), null, `${name}: Shift+Tab from its first control leaves it`);
    const walked = [];
    for (let k = 0; k < stops.length; ++k) {
      await page.keyboard.press('Tab');
      walked.push(await focused(name));
    }
    assert.deepEqual(walked, stops, `${name}: Tab walks its controls in order`);
    await page.keyboard.press('Tab');
    assert.equal(await focused(name), null, `${name}: Tab from its last control leaves it`);
  }
});

// --- the focus ring --------------------------------------------------------------------------

// Focuses `control` of figure `name` and screenshots the figure around it, once the figure has
// drawn the ring; the pixels around the control must differ from those without the focus.
async function ringShot(name, control, file) {
  const box = async () => {
    const b = await control.boundingBox();
    return { x: Math.max(0, b.x - 8), y: Math.max(0, b.y - 8), width: b.width + 16, height: b.height + 16 };
  };
  const frameAfter = () => settled(page, name);
  await control.focus();
  await page.evaluate(() => document.activeElement.blur());
  await frameAfter();
  const without = await page.screenshot({ clip: await box() });
  await control.focus();
  await frameAfter();
  const ringed = await page.screenshot({ clip: await box() });
  assert.ok(!ringed.equals(without), `${name}: the focused control is drawn with a ring`);
  const figureBox = await page.locator(`figure:has(canvas[data-figure="${name}"])`).boundingBox();
  const b = await control.boundingBox();
  const top = Math.max(figureBox.y, b.y - 160);
  await page.screenshot({ path: screenshotPath(file), clip: { x: figureBox.x, y: top, width: figureBox.width, height: Math.min(320, figureBox.y + figureBox.height - top) } });
}

test('the focus ring is drawn around the focused control at 1280 px', async () => {
  await drawn('training');
  await ringShot('training', figure('Figure 3').getByRole('button', { name: 'Step one batch' }), 'focus-ring-1280.png');
  // A sortable table's header button: the ring is around its header cell.
  await ringShot('results', figure('Figure 7').getByRole('button', { name: 'parameters' }), 'focus-ring-header-1280.png');
});

test('the focus ring is drawn around the focused control at 390 px', async () => {
  await page.setViewportSize({ width: 390, height: 844 });  // the figures lay themselves out again
  await drawn('training');
  await settled(page, 'training');
  await ringShot('training', figure('Figure 3').getByRole('button', { name: 'Step one batch' }), 'focus-ring-390.png');
  assert.deepEqual(problems, []);
});

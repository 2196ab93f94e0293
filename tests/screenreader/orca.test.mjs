// tests/screenreader/orca.test.mjs — the screen-reader smoke set: the lesson's main tasks done
// with a real screen reader, Debian's Orca, in Chromium and in Firefox ESR, each asserted on what
// Orca says (its speech, read from its log: desktop.mjs). The browser is driven by its automation
// protocol only to read the page and to put the focus on the control a task starts from; every
// key is a real X key press (xdotool) that Orca sees as it would on a desktop, and every assertion
// is on Orca's words, never on the page alone: a status region written but not spoken fails here.
//
//   Figure 2   Tab onto it undrawn    → its first control, once the figure has drawn it
//              Next step              → the step with its numbers
//   a heading  3 onto the one with 1/√d → the heading whole, its formula in words
//   Figure 3   drawn under the focus  → nothing, until Tab → its first control
//              an arrow on a combobox → the option chosen
//              Train                  → "Training.", the epoch, "Done after 1 epoch."
//   Figure 5   Tab into the map       → the cell it lands on; an arrow → the next cell;
//              Enter                  → the row with its peak;
//              Enter on a bar         → the moved attention and the new output
//   Figure 7   a header button        → the new ranking, its direction and first row
//   own pairs  Tab into the field     → its label and its hint, never an example as its text
//              an example's button    → "Loading …", then what was read
//   self-check Space on an answer, Enter on Check → "Right." and the score line
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { logs, serveLogged, site } from '../engines/helpers.mjs';
import { startDesktop } from './desktop.mjs';

let desktop, server;
before(async () => {
  desktop = await startDesktop(logs);
  server = await serveLogged(site, path.join(logs, 'orca-server.log'));
});
after(async () => {
  await server?.close();
  await desktop?.close();
});

// Chromium exposes its tree to AT-SPI only when asked (--force-renderer-accessibility); a
// persistent context keeps the one window Chromium opens, which openbox has made the active one.
async function chromium(env) {
  const { chromium: launcher } = await import('playwright-core');
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'lookback-orca-chromium-'));
  const context = await launcher.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium', headless: false, viewport: null, env,
    args: ['--no-sandbox', '--force-renderer-accessibility', '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
      '--no-first-run', '--password-store=basic', '--disable-background-networking', '--window-size=1280,1000'],
  });
  const page = context.pages()[0] ?? await context.newPage();
  return {
    goto: (url) => page.goto(url, { timeout: 60000 }),
    // An expression, so that a function takes several arguments as in Firefox's driver.
    run: (fn, ...args) => page.evaluate(`(${fn})(...${JSON.stringify(args)})`),
    close: async () => { await context.close(); fs.rmSync(profile, { recursive: true, force: true }); },
  };
}
// Firefox turns its accessibility on for GNOME_ACCESSIBILITY=1 (puppeteer-core, WebDriver BiDi).
async function firefox(env) {
  const { default: puppeteer } = await import('puppeteer-core');
  const browser = await puppeteer.launch({
    browser: 'firefox', executablePath: '/usr/bin/firefox-esr', headless: false, defaultViewport: null,
    env: { ...env, GNOME_ACCESSIBILITY: '1', MOZ_CRASHREPORTER_DISABLE: '1' }, protocolTimeout: 120000,
    args: ['--width=1280', '--height=1000'],
  });
  const page = (await browser.pages())[0] ?? await browser.newPage();
  return {
    goto: (url) => page.goto(url, { timeout: 60000 }),
    run: (fn, ...args) => page.evaluate(fn, ...args),
    close: () => browser.close(),
  };
}

// --- in the page ------------------------------------------------------------------------------

// Where element `selector` is on the screen (its first line of text), for a real click.
function screenPoint(selector) {
  const e = document.querySelector(selector);
  e.scrollIntoView({ block: 'center' });
  const r = e.getBoundingClientRect();
  // Firefox says where its viewport is; elsewhere the viewport is the window's bottom part.
  const left = window.mozInnerScreenX ?? window.screenX + (outerWidth - innerWidth) / 2;
  const top = window.mozInnerScreenY ?? window.screenY + outerHeight - innerHeight;
  return [left + r.left + 10, top + r.top + 8];
}

// Focuses the element of figure `name`'s mirror that `selector` finds (whose aria-label or text is
// `label`, if given: null stands for none, as JSON has no undefined), its canvas scrolled into view first; false while the figure has not drawn it.
function focusIn(name, selector, label) {
  const canvas = document.querySelector(`canvas[data-figure="${name}"]`);
  canvas.scrollIntoView({ block: 'center' });
  const mirror = canvas.previousElementSibling;
  const e = [...(mirror?.querySelectorAll(selector) ?? [])].find((c) =>
    label == null || (c.getAttribute('aria-label') ?? c.textContent.trim()) === label);
  if (!e) return false;
  e.focus();
  return document.activeElement === e;
}

// Marks the tab stop just before Figure 5's map (data-before-map), for a Tab into the map.
function markBeforeMap() {
  const mirror = document.querySelector('canvas[data-figure="alignment"]').previousElementSibling;
  const cell = mirror.querySelector('[role="grid"][aria-label^="attention map"] [role="gridcell"][tabindex="0"]');
  const stops = [...mirror.querySelectorAll('button, input, [tabindex="0"]')]
    .filter((e) => e.tabIndex >= 0 && (e.type !== 'radio' || e.checked || !mirror.querySelector(`input[name="${e.name}"]:checked`)));
  mirror.querySelectorAll('[data-before-map]').forEach((e) => e.removeAttribute('data-before-map'));
  stops[stops.indexOf(cell) - 1].dataset.beforeMap = '';
}

// Focuses the element of the page (not of a figure's mirror) that `selector` finds, scrolled into view.
function focusElement(selector) {
  const e = document.querySelector(selector);
  e.scrollIntoView({ block: 'center' });
  e.focus();
  return document.activeElement === e;
}

// Focuses the heading `id` (made focusable for the script; a reader gets there by heading keys),
// scrolled into view.
function focusHeading(id) {
  const heading = document.getElementById(id);
  heading.tabIndex = -1;
  heading.focus();
  return document.activeElement === heading;
}

// The value of the focused select or combobox, as seen.
function focusedValue() {
  const e = document.activeElement;
  return e.tagName === 'SELECT' ? e.selectedOptions[0]?.text : e.textContent;
}

// What figure `name`'s mirror holds, for a message: each control's role and name.
function mirrorSummary(name) {
  const mirror = document.querySelector(`canvas[data-figure="${name}"]`).previousElementSibling;
  return JSON.stringify([...mirror.querySelectorAll('[data-control]')].map((e) =>
    `${e.getAttribute('role') ?? e.tagName.toLowerCase()}: ${e.getAttribute('aria-label') ?? e.textContent.trim().slice(0, 40)}`));
}

const focused = () => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent.trim();
// What figure `name`'s status region said last (each announcement is a line of its own).
const statusOf = (name) => document.querySelector(`canvas[data-figure="${name}"]`).nextElementSibling.lastElementChild?.textContent;

// --- the tasks, for each browser ------------------------------------------------------------------

for (const [engine, launch] of [['Chromium', chromium], ['Firefox', firefox]]) {
  let driver;
  const state = (name) => driver.run((n) => window.lookback.state(n), name);
  // Focuses a control and waits until Orca says it: the key that follows is then pressed where a
  // reader who heard it would press it, and Orca has caught up with the page.
  const focus = async (what, name, selector, label, heard = label) => {
    const from = desktop.mark();
    const deadline = Date.now() + 60000;
    while (!(await driver.run(focusIn, name, selector, label))) {
      if (Date.now() > deadline) {
        throw new Error(`${engine}: ${what} never appeared in ${name}'s mirror, which holds ${await driver.run(mirrorSummary, name)}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await desktop.hears(`${what} when focused`, heard ?? (await driver.run(focused)), from);
  };

  test(`${engine}: the page opens with Orca running, and the focus is in it`, { timeout: 90000 }, async () => {
    driver = await launch(desktop.env);
    const from = desktop.mark();
    // One epoch of width 8 took 0.5 s in Firefox: "Training." then came and went before Orca, a
    // second behind, read it (Firefox had already replaced its line's object). Width 16 there.
    await driver.goto(`${server.url}?tr.width=${engine === 'Firefox' ? 16 : 8}&tr.epochs=1`);
    await desktop.hears('the page loaded', 'Finished loading Lookback', from, 60000);
    // A real click in the text: the focus leaves the address bar for the page, as a reader's would.
    const [x, y] = await driver.run(screenPoint, 'main p');
    await desktop.click(x, y);
    await driver.run(() => new Promise((resolve) => { const ok = () => document.hasFocus() ? resolve(true) : setTimeout(ok, 50); ok(); }));
  });

  // A figure draws once it nears the viewport, so Tab can land on its canvas first; the figure
  // then moves the focus to its first control, which Orca must say (in Chromium it took it
  // without a word while the canvas left the tree in the same frame).
  test(`${engine}: Tab onto Figure 2 before it has drawn, and Orca says its first control`, { timeout: 90000 }, async () => {
    let from = desktop.mark();
    // The focus just before the canvas, on its section's heading, without scrolling to it.
    assert.deepEqual(await driver.run(() => {
      const heading = document.getElementById('worked-example-title');
      heading.tabIndex = -1;
      heading.focus({ preventScroll: true });
      const canvas = document.querySelector('canvas[data-figure="worked-example"]');
      window.orcaFocused = [];
      canvas.addEventListener('focus', () => window.orcaFocused.push('canvas'), { once: true });
      return [document.activeElement === heading, window.lookback.frames('worked-example')];
    }), [true, 0], 'the heading focused, Figure 2 not drawn yet');
    await desktop.hears('the heading', 'One step by hand', from);
    from = desktop.mark();
    await desktop.key('Tab');
    await desktop.hears('the first control', 'Previous step push button', from, 60000);
    assert.deepEqual(await driver.run(() => window.orcaFocused), ['canvas'], 'Tab landed on the canvas');
  });

  test(`${engine}: Figure 2, Next step is followed by the step's numbers`, { timeout: 90000 }, async () => {
    await focus('Next step', 'worked-example', 'button', 'Next step');
    const from = desktop.mark();
    await desktop.key('Return');
    await desktop.hears('the step', 'Step 2 of 4, softmax: weights 0.368, 0.183 and 0.449, from exponentials summing to 6.685.', from);
  });

  // The heading with a formula was read in pieces in both browsers ("Temperature, and the",
  // "1.", "/", "𝑑.", without the root): it says its formula in words, whole.
  test(`${engine}: 3 onto the heading with 1/√d says it whole, the formula in words`, { timeout: 60000 }, async () => {
    let from = desktop.mark();
    assert.ok(await driver.run(focusHeading, 'sentence-alignment-title'));
    await desktop.hears('the heading before it', 'An alignment in a sentence', from);
    from = desktop.mark();
    await desktop.key('3');
    try {
      const heard = await desktop.hears('the next heading', 'heading level 3', from);
      assert.equal(heard, 'Temperature, and the one over the square root of d of the scaled dot product heading level 3.');
    } finally {
      // Orca ignores a focus moved by the page right after a heading key (it takes it for its own
      // move): a Tab, as a reader would press, before the next task puts the focus somewhere.
      from = desktop.mark();
      await desktop.key('Tab');
      await desktop.hears('the next tab stop', () => true, from);
    }
  });

  // Chromium sent a selection event for each <select> as it entered the tree, and Orca said every
  // select of Figure 3 as the figure drew under the focus ("task combo box collapsed dates"); the
  // choices are comboboxes now, which say nothing until the reader reaches one. Orca takes events
  // in order: anything the drawing made it say comes before what the Tab that follows makes it say.
  // Then an arrow on a combobox says the option it chose. (Chromium's select said nothing for Up
  // after nine Tabs from the figure's heading, by hand; on this path the old select spoke too, so
  // this part keeps the new behaviour rather than catching the old: keyboard.test catches that.)
  test(`${engine}: Figure 3 draws under the focus without a word; an arrow on a combobox says its choice`, { timeout: 90000 }, async () => {
    let from = desktop.mark();
    assert.ok(await driver.run(focusHeading, 'training'));
    await desktop.hears('the heading', 'Training both, in this page', from);
    const deadline = Date.now() + 60000;
    while (!(await driver.run(() => document.querySelector('canvas[data-figure="training"]').previousElementSibling
      .querySelector('[aria-label="task"]') !== null))) {
      if (Date.now() > deadline) throw new Error(`${engine}: Figure 3 never drew its controls`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await desktop.key('Tab');
    await desktop.hears('the first control', (t) => t === 'task combo box.', from);
    const said = desktop.said(from);
    assert.deepEqual(said.slice(0, said.indexOf('task combo box.')).filter((t) => /combo box/.test(t)), [],
      `nothing said of a combobox before the Tab: ${JSON.stringify(said)}`);
    // Down and Up on the width (back to the width the page was opened with, for the test below).
    await focus('the width', 'training', '[aria-label="width"]', 'width', 'width combo box');
    for (const key of ['Down', 'Up']) {
      const before = await driver.run(focusedValue);
      from = desktop.mark();
      await desktop.key(key);
      const deadline2 = Date.now() + 10000;
      let now;
      while ((now = await driver.run(focusedValue)) === before) {
        if (Date.now() > deadline2) throw new Error(`${engine}: ${key} did not change the width`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await desktop.hears(`the width chosen by ${key}`, (t) => t === `${now}.`, from);
    }
  });

  test(`${engine}: Figure 3, Train is followed by "Training.", the epoch and "Done"`, { timeout: 120000 }, async () => {
    await focus('Train', 'training', 'button', 'Train');
    const from = desktop.mark();
    await desktop.key('Return');
    await desktop.hears('"Training."', (t) => t === 'Training.', from);
    await desktop.hears('the end', 'Done after 1 epoch.', from, 90000);
    const runs = (await state('training')).runs;
    const epoch = `epoch 1 of 1: plain ${runs[0].epochs[0].exact.toFixed(4)} exact, ` +
      `attention additive ${runs[1].epochs[0].exact.toFixed(4)} exact`;
    // The epoch and the end are one line when one frame has both, else two (the end comes when
    // the held-out strings are decoded); each said once.
    const said = desktop.said(from).filter((t) => t.startsWith('epoch ') || t.includes('Done after'));
    assert.ok(said.length === 1 ? said[0] === `${epoch}. Done after 1 epoch.` : said.join(' | ') === `${epoch} | Done after 1 epoch.`,
      `the epoch and the end, once each: ${JSON.stringify(said)}`);
  });

  test(`${engine}: Figure 5, the map's cells are said as the arrows walk them; Enter chooses a row`, { timeout: 90000 }, async () => {
    await driver.run(() => document.querySelector('canvas[data-figure="alignment"]').scrollIntoView({ block: 'center' }));
    const deadline = Date.now() + 60000;
    while ((await state('alignment')).weights?.length !== 10) {
      if (Date.now() > deadline) throw new Error(`${engine}: the shipped model's map never came`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    // Tab into the map from the tab stop before it: Orca says the cell the focus lands on (in
    // Firefox it said the map and its size but not the cell; Chromium read every cell of its row).
    await driver.run(markBeforeMap);
    await focus('the tab stop before the map', 'alignment', '[data-before-map]', undefined, null);
    let from = desktop.mark();
    await desktop.key('Tab');
    const cellName = /^output \d+, '.'; input \d+, '.'; weight \d\.\d\d$/;
    const landed = Date.now() + 10000;
    let entered;
    while (!cellName.test(entered = await driver.run(focused))) {
      if (Date.now() > landed) throw new Error(`${engine}: Tab landed on "${entered}", not on the map`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await desktop.hears('the cell Tab lands on', (t) => t === `${entered}.`, from);
    from = desktop.mark();
    await desktop.key('Down');
    const s = await state('alignment');
    const cell = await driver.run(focused);
    assert.match(cell, /^output \d+, '.'; input \d+, '.'; weight \d\.\d\d$/);
    await desktop.hears('the cell below', cell, from);
    // Enter on it chooses its row, said with its peak.
    from = desktop.mark();
    await desktop.key('Return');
    const r = Number(cell.match(/^output (\d+)/)[1]), row = s.weights[r], peak = row.indexOf(Math.max(...row));
    await desktop.hears('the row chosen', `output ${r}, '${s.output[r]}': its peak is input ${peak}, '${s.input[peak]}', weight ${row[peak].toFixed(2)}`, from);
  });

  test(`${engine}: Figure 5, Enter on a bar moves the step's attention, and the new output is said`, { timeout: 90000 }, async () => {
    const r = (await state('alignment')).selected_output;
    await focus('a bar', 'alignment', `[role="grid"][aria-label^="weights of output ${r} "] [role="gridcell"][tabindex="0"]`, undefined, null);
    const from = desktop.mark();
    await desktop.key('Return');
    const heard = await desktop.hears('the moved attention', `step ${r} moved onto input`, from);
    assert.equal(heard, await driver.run(statusOf, 'alignment'));
    assert.match(heard, new RegExp(`^step ${r} moved onto input \\d+, '.': the output now reads \\S+$`));
  });

  test(`${engine}: Figure 7, a header button ranks the results, and the ranking is said`, { timeout: 90000 }, async () => {
    await focus('the parameters header', 'results', 'th button', 'parameters', 'parameters');
    const from = desktop.mark();
    await desktop.key('Return');
    const heard = await desktop.hears('the ranking', 'ranked by parameters, descending; first: ', from);
    const first = (await state('results')).rows[0];
    assert.equal(heard, `ranked by parameters, descending; first: ${first.model}, width ${first.width}, parameters ${first.parameters.toLocaleString('en-US')}`);
  });

  // The status line is replaced as the pairs load; each of its messages is also a line added to
  // a hidden status region (with the line alone rewritten, Orca in Firefox never said "Loading
  // numbers.tsv…").
  test(`${engine}: Your own pairs, an example used, says it is loading and then what was read`, { timeout: 90000 }, async () => {
    // Tab into the pairs field: its label and its hint, and no example as its text (its
    // placeholder of two example pairs was read as its content, "forty five 4 5three hundred five
    // 3 0 5" in Chromium).
    let from = desktop.mark();
    assert.ok(await driver.run(focusElement, 'a[href*="cmu-pronouncing-dictionary"]'));
    await desktop.hears('the link before the field', 'cmu-pronouncing-dictionary', from);
    from = desktop.mark();
    await desktop.key('Tab');
    const field = await desktop.hears('the field', 'Pairs (tab-separated; or drop a file here) entry', from);
    assert.equal(field, 'Pairs (tab-separated; or drop a file here) entry.');
    await desktop.hears('its hint', (t) => t === 'One pair a line: the input, a tab, then the output; for example forty five, a tab, 4 5.', from);
    assert.deepEqual(desktop.said(from).filter((t) => /forty five\t/.test(t)), [], 'no example pair as the field\'s text');
    from = desktop.mark();
    assert.ok(await driver.run(focusElement, '[data-own-pairs-example="numbers.tsv"]'));
    await desktop.hears('the example button when focused', 'Example: numbers in words', from);
    from = desktop.mark();
    await desktop.key('Return');
    await desktop.hears('the loading', 'Loading numbers.tsv', from);
    const heard = await desktop.hears('the pairs read', 'numbers.tsv: 9,999 pairs read', from, 60000);
    assert.equal(heard, await driver.run(() => document.getElementById('own-pairs-status').textContent));
  });

  test(`${engine}: the self-check, an answer chosen and checked, says "Right." and the score`, { timeout: 60000 }, async () => {
    let from = desktop.mark();
    assert.ok(await driver.run(focusElement, '#q-problem input[value="b"]'));
    await desktop.hears('the answer when focused', 'At every output step the decoder gets its own weighted mix', from);
    await desktop.key('space');
    await driver.run(() => new Promise((resolve) => { const ok = () => document.querySelector('#q-problem input[value="b"]').checked ? resolve(true) : setTimeout(ok, 50); ok(); }));
    from = desktop.mark();
    assert.ok(await driver.run(() => { const b = document.querySelector('#q-problem button'); b.focus(); return document.activeElement === b; }));
    await desktop.hears('Check when focused', 'Check', from);
    from = desktop.mark();
    await desktop.key('Return');
    await desktop.hears('the verdict', (t) => t === 'Right.', from);
    await desktop.hears('the score', 'Your score so far: 1 of 1 concept questions', from);
  });

  test(`${engine}: closed`, { timeout: 30000 }, async () => {
    await driver.close();
  });
}

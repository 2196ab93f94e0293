// tests/browser/markup.test.mjs — the page's markup as the standard checkers see it:
// html-validate over the built index.html (its rules in .htmlvalidate.json; KaTeX's inline styles
// are allowed there by a rule setting, property by property), and axe-core (WCAG 2.1 A and AA,
// and its best practices) injected into the served page at 1280 px light and dark and at 390 px,
// after every figure has started and drawn (so their controls' mirrors are there, and axe reads
// them too), every "as text" alternative and explanation is open, and the self-check has answered
// a concept question and a computation. Both must find nothing.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import axe from 'axe-core';
import { FileSystemConfigLoader, HtmlValidate } from 'html-validate';
import { openWatched, root, settled, site, until, useBrowser } from './helpers.mjs';

test('html-validate finds nothing in the built index.html and embed.html', async () => {
  for (const page of ['index.html', 'embed.html']) {
    const file = path.join(site, page);
    assert.ok(fs.existsSync(file), `build/site/${page} is missing: run ./build_wasm.sh first`);
    // The project's rules wherever the site was built (LOOKBACK_SITE may lie outside the checkout,
    // where no .htmlvalidate.json would be found above it).
    const validator = new HtmlValidate(new FileSystemConfigLoader(JSON.parse(fs.readFileSync(path.join(root, '.htmlvalidate.json'), 'utf8'))));
    const config = await validator.getConfigFor(file);
    assert.equal(config.getRules().get('no-inline-style')?.[0], 2, 'the inline-style rule is on, with its allowed properties');
    const report = await validator.validateFile(file);
    const messages = report.results.flatMap((r) => r.messages.map((m) => `${path.relative(root, r.filePath)}:${m.line}:${m.column} ${m.ruleId}: ${m.message}`));
    assert.deepEqual(messages, []);
  }
});

// A reader who cannot see the formulas hears them as mathematics: every KaTeX formula in the built
// page holds MathML (its TeX kept only as the MathML's annotation, never as a name) beside its
// HTML, which is hidden from assistive technology; in order, the formulas written in
// web/page/index.html.
test('every formula is MathML for assistive technology, its HTML hidden', () => {
  const built = fs.readFileSync(path.join(site, 'index.html'), 'utf8');
  const unescape = (text) => text.replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  const formulas = built.match(/<span class="katex"[^>]*>/g);
  assert.ok(formulas.every((tag) => tag === '<span class="katex">'), 'no formula is named by its TeX (or given a role)');
  const annotated = [...built.matchAll(/<span class="katex"><span class="katex-mathml"><math xmlns="http:\/\/www.w3.org\/1998\/Math\/MathML"[^>]*><semantics>[\s\S]*?<annotation encoding="application\/x-tex">([\s\S]*?)<\/annotation><\/semantics><\/math><\/span><span class="katex-html" aria-hidden="true">/g)]
    .map(([, tex]) => unescape(tex).trim().replace(/\s+/g, ' '));
  assert.equal(annotated.length, formulas.length, 'every formula is MathML beside its hidden HTML');
  const source = fs.readFileSync(path.join(root, 'web/page/index.html'), 'utf8').replace(/<(script|style|pre|code)\b[\s\S]*?<\/\1>/g, '');
  const written = [...source.matchAll(/\\\[([\s\S]+?)\\\]|\\\(([\s\S]+?)\\\)/g)]
    .map(([, display, inline]) => unescape(display ?? inline).replace(/&nbsp;/g, '\u00a0').trim().replace(/\s+/g, ' '));
  assert.ok(written.length > 100, `${written.length} formulas found in the source`);
  assert.deepEqual(annotated, written);
});

// Chromium leaves math out of a name computed from content: a heading, a header cell or a
// question's legend holding a formula is named in words (aria-label; a legend's on its fieldset).
test('a name that holds a formula is also written in words', () => {
  const source = fs.readFileSync(path.join(root, 'web/page/index.html'), 'utf8');
  const unnamed = [...source.matchAll(/<(h[1-6]|th|legend)\b([^>]*)>((?:(?!<\/\1>)[\s\S])*?\\\([\s\S]*?)<\/\1>/g)]
    .filter(([whole, tag, attributes, text]) => {
      // Or the formula hidden where the element says it all in words (a heading read in pieces).
      if (/^<span aria-hidden="true">[^]*<\/span><span class="visually-hidden">[^<]+<\/span>$/.test(text.trim())) return false;
      if (tag !== 'legend') return !/aria-label="[^"]+"/.test(attributes);
      const before = source.slice(0, source.indexOf(whole));
      return !/<fieldset aria-label="[^"]+">\s*$/.test(before);
    })
    .map(([, tag, , text]) => `<${tag}> ${text.trim().slice(0, 60)}`);
  assert.deepEqual(unnamed, []);
});

const env = useBrowser();

// A formula as Chromium's accessibility tree gives it to a screen reader: its MathML nodes, each
// written as its kind over its children, spaces between (sub(d, k) is d with subscript k), letters as typed (the
// tree holds mathematical italic letters, 𝑑 for d).
function mathOf(node, byId) {
  const kinds = { MathMLSub: 'sub', MathMLSup: 'sup', MathMLSquareRoot: 'sqrt', MathMLFraction: 'frac', MathMLUnder: 'under' };
  const children = (node.childIds ?? []).map((id) => byId.get(id)).filter(Boolean);
  const role = node.role?.value;
  // Spacing and the invisible function application (U+2061) are not spoken.
  if (role === 'StaticText') return String(node.name.value).normalize('NFKC').replace(/[\s\u2061]/g, '');
  const inner = children.filter((c) => c.role?.value !== 'InlineTextBox').map((c) => mathOf(c, byId)).filter((t) => t !== '');
  return kinds[role] ? `${kinds[role]}(${inner.join(', ')})` : inner.join(' ');
}

test('the browser exposes formulas as MathML, with their structure', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${env.url}#mechanism-title`);
  const cdp = await context.newCDPSession(page);
  const { root: document } = await cdp.send('DOM.getDocument', { depth: 0 });
  // Each formula's MathML under the element `selector`, read once the browser has laid it out
  // (a section far away has no tree until then: content-visibility).
  const formulas = async (selector) => {
    await page.locator(selector).scrollIntoViewIfNeeded();
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: document.nodeId, selector });
    let nodes = [];
    await until(`the formulas of ${selector} in the tree`, async () =>
      (({ nodes } = await cdp.send('Accessibility.queryAXTree', { nodeId })), nodes.some((n) => n.role?.value === 'MathMLMath')));
    const byId = new Map(nodes.map((n) => [n.nodeId, n]));
    assert.ok(!nodes.some((n) => n.role?.value === 'math' && n.name?.value), 'no formula is a math node named by a text');
    return nodes.filter((n) => n.role?.value === 'MathMLMath' && !n.ignored).map((n) => mathOf(n, byId));
  };
  const steps = await formulas('#mechanism ol.steps');
  assert.equal(steps[0], 'sub(e, t , j) = score ( sub(s, t − 1) , sub(h, j) ) .');
  assert.equal(steps[1], 'sub(α, t , j) = frac(exp ( sub(e, t , j) ), under(∑, k) exp ( sub(e, t , k) )) .');
  // A heading with a formula is read whole: Orca read the heading of the scaled dot product in
  // pieces in both browsers ("Temperature, and the", "1.", "/", "𝑑.", without the root), so its
  // formula is hidden there and the heading says it in words, one text.
  await page.locator('#temperature-title').scrollIntoViewIfNeeded();
  const { nodeId: heading } = await cdp.send('DOM.querySelector', { nodeId: document.nodeId, selector: '#temperature-title' });
  let spoken = [];
  await until('the heading in the tree', async () =>
    (spoken = (await cdp.send('Accessibility.queryAXTree', { nodeId: heading })).nodes.filter((n) => !n.ignored && n.role?.value !== 'InlineTextBox')).length > 0);
  assert.deepEqual(spoken.map((n) => `${n.role?.value}: ${n.name?.value}`), [
    'heading: Temperature, and the one over the square root of d of the scaled dot product',
    'StaticText: Temperature, and the one over the square root of d of the scaled dot product',
  ]);
  const scaled = await formulas('#scaled-dot-prose');
  assert.equal(scaled[0], 'sup(q, ⊤) k / sqrt(sub(d, k)) ,');
  // The HTML that is seen is not read: no text of KaTeX's HTML is in the tree.
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: document.nodeId, selector: '#scaled-dot-prose .katex-html' });
  const { nodes: [html] } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
  assert.ok(html.ignored, 'KaTeX\'s HTML is hidden from the tree');
  await context.close();
});

// The own-pairs field says its label and its visible hint, never an example as its content: its
// placeholder of two example pairs was read as the field's text in Chromium ("forty five 4 5three
// hundred five 3 0 5") and Firefox (Chromium made it the field's description).
test('the pairs field is named by its label and described by its hint, with no placeholder', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${env.url}#own-pairs`);
  const cdp = await context.newCDPSession(page);
  const { root: document } = await cdp.send('DOM.getDocument', { depth: 0 });
  const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: document.nodeId, selector: '#own-pairs-text' });
  const { nodes: [field] } = await cdp.send('Accessibility.getPartialAXTree', { nodeId, fetchRelatives: false });
  const hint = 'One pair a line: the input, a tab, then the output; for example forty five, a tab, 4 5.';
  assert.deepEqual([field.role.value, field.name.value, field.description?.value, field.value?.value ?? ''],
    ['textbox', 'Pairs (tab-separated; or drop a file here)', hint, '']);
  assert.deepEqual(field.name.sources.filter((source) => source.attribute === 'placeholder' && source.attributeValue), [], 'no placeholder');
  assert.equal(await page.locator('#own-pairs-hint').evaluate((p) => p.textContent.replace(/\s+/g, ' ').trim()), hint, 'the hint is seen');
  await context.close();
});

// What a screen reader gets from the article's own structure, in Chromium's tree: every focusable
// scroll box around a table is a named group (not a region: nine more landmarks, two named as
// their sections), and a section's heading and region are named by the heading's words alone (its
// "#" link, for the mouse, is out of the tree and the Tab order). Every section laid out at once
// (Chromium leaves a skipped section's names empty), so that one tree holds them all.
test('the tables\' scroll boxes are named groups; headings and sections are named without their link', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await page.goto(env.url);
  await page.addStyleTag({ content: 'article > section { content-visibility: visible !important; }' });
  const boxes = await page.evaluate(() => [...document.querySelectorAll('.table-wrap')].map((box) => box.tabIndex));
  assert.deepEqual(boxes, Array(9).fill(0), 'nine scroll boxes, each a tab stop');
  const sections = await page.evaluate(() => [...document.querySelectorAll('article > section[aria-labelledby]')].map((section) => {
    const heading = document.getElementById(section.getAttribute('aria-labelledby'));
    return { words: heading.firstChild.textContent.trim(), anchor: heading.querySelector('.anchor').tabIndex };
  }));
  assert.equal(sections.length, 14);
  assert.deepEqual(sections.map((s) => s.anchor), Array(14).fill(-1), 'no section\'s "#" link is a tab stop');
  const cdp = await context.newCDPSession(page);
  let nodes;
  // Names as said: a space before the heading's link is not.
  const named = (role) => nodes.filter((n) => n.role?.value === role && !n.ignored).map((n) => String(n.name?.value ?? '').trim());
  const words = sections.map((s) => s.words);
  await until('every section in the tree', async () => {
    ({ nodes } = await cdp.send('Accessibility.getFullAXTree'));
    return named('region').filter((name) => words.includes(name)).length === words.length;
  });
  const boxNames = [
    'Illustrative alignment map, French to English',
    'Scoring functions',
    'The six input formats, and per-character accuracy at width 64 (ours)',
    'Accuracy at each output position, width 64, held-out strings; chance is always writing the split\'s most common character there',
    'Where the shipped attention model looks most, writing 1977-09-19 from monday 19 september 1977 (input positions counted from 0)',
    'Held-out exact match, mean over seeds 1–3 (lowest–highest), 12 epochs',
    'Bahdanau 2014 beside the Transformer 2017',
    'Exact match of the Transformers and the GRUs, width 64, three seeds',
    'What changed, model by model',
  ];
  assert.deepEqual(named('group').filter((name) => boxNames.includes(name)).sort(), [...boxNames].sort(), 'each scroll box is a group with its name');
  assert.deepEqual(named('heading').filter((name) => words.includes(name)).sort(), [...words].sort(), 'each section\'s heading is named by its words');
  assert.deepEqual(nodes.filter((n) => !n.ignored && /Link to this section|#$/.test(String(n.name?.value ?? '').trim())).map((n) => n.name.value), [],
    'no "Link to this section", no "#", is read');
  await context.close();
});

// Brings every figure to life and opens what a reader can open, then runs axe in the page.
async function axeViolations(page) {
  const names = await page.evaluate(() => window.lookback.figures());
  for (const name of names) {
    await page.locator(`canvas[data-figure="${name}"]`).scrollIntoViewIfNeeded();
    await settled(page, name);
  }
  await page.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));
  // The self-check's states: a concept question answered, a computation answered.
  await page.locator('#q-problem input[value="a"]').check();
  await page.locator('#q-problem button[type="submit"]').click();
  await until('a concept verdict', () => page.evaluate(() => document.querySelector('#q-problem').dataset.result === 'wrong'));
  await until('the computation questions', () => page.evaluate(() => window.lookbackSelfCheck !== undefined), 15000);
  await page.locator('#c-dot input[name="answer"]').fill('0.5');
  await page.locator('#c-dot button[type="submit"]').click();
  await until('a computation verdict', () => page.evaluate(() => Boolean(document.querySelector('#c-dot').dataset.result)));
  return axeRun(page, names.length);
}

// axe's violations in the page. With `figures`, that many figures' controls (their mirrors,
// web/page/mirror.js) must be there and axe must have looked at elements of every one of them.
async function axeRun(page, figures = 0) {
  await page.evaluate(axe.source);
  const result = await page.evaluate(async () => {
    const r = await window.axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      elementRef: true,
    });
    const looked = new Set();
    for (const rule of [...r.passes, ...r.violations, ...r.incomplete]) {
      for (const node of rule.nodes) {
        const mirror = node.element?.closest?.('.figure-mirror');
        if (mirror) looked.add(mirror);
      }
    }
    return {
      violations: r.violations.map((v) => `${v.id} (${v.impact}): ${v.help}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`),
      controls: document.querySelectorAll('.figure-mirror-control').length,
      mirrorsLooked: looked.size,
    };
  });
  if (figures) {
    assert.ok(result.controls > 0, 'the figures\' controls are in the page');
    assert.equal(result.mirrorsLooked, figures, 'axe looked at every figure\'s controls');
  }
  return result.violations;
}

for (const [width, scheme] of [[1280, 'light'], [1280, 'dark'], [390, 'light']]) {
  test(`axe-core finds nothing at ${width} px, ${scheme}`, async () => {
    const context = await env.browser.newContext({ viewport: { width, height: 900 }, colorScheme: scheme });
    const { page, problems } = await openWatched(context, env.url);
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(problems, []);
    await context.close();
  });
}

// embed.html: a locked figure alone (its Unlock link shown, its toolbar's status said), dark, on a
// phone; and the page that refuses a figure name.
test('axe-core finds nothing in embed.html, with a figure and with a refused name', async () => {
  const context = await env.browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: 'dark' });
  const { page, problems } = await openWatched(context, `${env.url}embed.html?figure=alignment&lock=1`);
  await settled(page, 'alignment');
  await page.evaluate(() => document.querySelectorAll('details').forEach((d) => { d.open = true; }));
  await page.locator('[data-export="json"]').click();
  await until('the toolbar to answer', async () => (await page.locator('.figure-tools-status').textContent()) !== '');
  assert.deepEqual(await axeRun(page), []);
  const refused = await openWatched(context, `${env.url}embed.html?figure=nope`);
  assert.deepEqual(await axeRun(refused.page), []);
  assert.deepEqual([...problems, ...refused.problems], []);
  await context.close();
});

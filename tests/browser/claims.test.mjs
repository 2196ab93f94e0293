// tests/browser/claims.test.mjs — every conclusion the article draws is a checked claim.
//
// The register is tests/browser/claims.mjs: one entry per claim, with its evidence as FILE:PATH
// references into assets/ (resolved by asset_path.mjs, the resolver page_numbers.test.mjs uses)
// and a predicate on those numbers. This test
//   - evaluates every predicate against assets/ and fails with the claim's id, its line in
//     web/page/index.html and the numbers;
//   - fails on a data-claim="ID" in the page without an entry, and on an entry no element uses;
//   - fails on a sentence of the article with a causal or comparative word (because, so, since,
//     shows, fits, explains, means, depends, better, worse, more, less, most, always, never,
//     cannot, only, not … but) outside every claim, unless an EXCEPTIONS entry covers it; an
//     entry that covers nothing fails too;
//   - shows that a changed asset makes the claims it carries fail (a copy, in memory), and prints
//     which claims each asset carries;
//   - checks the ten-minute route's time against its own words and figures.
//
// Node only: it reads the page's source, so its line numbers are the file's.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { resolve } from './asset_path.mjs';
import { CLAIMS, EXCEPTIONS } from './claims.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const html = fs.readFileSync(path.join(root, 'web/page/index.html'), 'utf8');
const ASSETS = Object.fromEntries(fs.readdirSync(path.join(root, 'assets')).filter((f) => f.endsWith('.json'))
  .map((f) => [f, JSON.parse(fs.readFileSync(path.join(root, 'assets', f), 'utf8'))]));

const lineAt = (text, offset) => text.slice(0, offset).split('\n').length;

// Every FILE:PATH a claim's evidence names.
export const paths = (claim) => Object.values(claim.evidence).flat();

// The claim's evidence read from `assets` ({ file: json }), and whether its predicate holds.
export function evaluate(claim, assets = ASSETS) {
  const values = {};
  for (const [name, ref] of Object.entries(claim.evidence)) {
    const one = (r) => {
      const colon = r.indexOf(':');
      const file = r.slice(0, colon);
      if (!(file in assets)) throw new Error(`${r}: no assets/${file}`);
      try {
        return resolve(assets[file], r.slice(colon + 1));
      } catch (error) {
        throw new Error(`${r}: ${error.message}`);
      }
    };
    values[name] = Array.isArray(ref) ? ref.map(one) : one(ref);
  }
  return { values, ok: claim.holds(values) === true };
}

// The element an opening tag at `start` begins, to the end of its matching closing tag.
function elementEnd(text, start) {
  const name = text.slice(start + 1).match(/^[a-z0-9]+/i)[0];
  const tags = new RegExp(`<(/?)${name}\\b[^>]*>`, 'gi');
  tags.lastIndex = start;
  let depth = 0;
  for (const tag of text.matchAll(tags)) {
    if (tag.index < start) continue;
    depth += tag[1] ? -1 : 1;
    if (depth === 0) return tag.index + tag[0].length;
  }
  throw new Error(`line ${lineAt(text, start)}: <${name}> is never closed`);
}

// [{ id, from, to, line }] of every element carrying data-claim.
export function claimElements(page) {
  const found = [];
  for (const match of page.matchAll(/<[a-z0-9]+\b[^>]*\sdata-claim="([^"]*)"[^>]*>/gi)) {
    found.push({ id: match[1], from: match.index, to: elementEnd(page, match.index), line: lineAt(page, match.index) });
  }
  return found;
}

// The article's text with everything that is not prose blanked and every offset kept: block
// boundaries become ¶ so that no sentence runs from one block into the next.
function proseText(page) {
  const blank = (t) => t.replace(/[^\n]/g, ' ');
  let text = page;
  const notProse = [/<!--[\s\S]*?-->/g, /<head>[\s\S]*?<\/head>/g, /<(script|style|code|kbd)\b[\s\S]*?<\/\1>/g, /\\\[[\s\S]+?\\\]/g,
    /\\\([\s\S]+?\\\)/g, /<figure[^>]*data-illustrative[\s\S]*?<\/figure>/g, /<section id="references"[\s\S]*?<\/section>/g, /<table[\s\S]*?<\/table>/g];
  for (const pattern of notProse) text = text.replace(pattern, blank);
  text = text.replace(/<\/?(?:p|li|ol|ul|figcaption|dt|dd|h[1-6]|legend|label|summary|caption|div|td|th|tr|details|figure|section|aside|fieldset|form|nav|header|footer|button|noscript|main|article|body)\b[^>]*>/g,
    (tag) => `\u00b6${' '.repeat(tag.length - 1)}`);
  return text.replace(/<[^>]*>/g, blank).replace(/&[a-z]+;/g, (entity) => ' '.repeat(entity.length));
}

const TRIGGER = /\b(?:because|so|since|shows|fits|explains|means|depends|better|worse|more|less|most|always|never|cannot|only)\b|\bnot\b(?=[^.;:]*\bbut\b)/gi;

// { unclaimed: [...], used: Set of exception indices } for the page.
export function scan(page, exceptions = EXCEPTIONS, trigger = TRIGGER) {
  const claims = claimElements(page);
  const regions = exceptions.map((entry) => (entry.within
    ? [...page.matchAll(new RegExp(entry.within.source, 'g'))].map((m) => [m.index, elementEnd(page, m.index)]) : []));
  const text = proseText(page);
  const unclaimed = [], used = new Set();
  for (const block of text.matchAll(/[^\u00b6]+/g)) {
    for (const s of block[0].matchAll(/[\s\S]+?(?:[.?!](?=\s+[A-Z“(\d]|\s*$)|$)/g)) {
      const sentence = s[0].replace(/\s+/g, ' ').trim();
      if (!sentence) continue;
      const at = block.index + s.index;
      const words = [...s[0].matchAll(trigger)].map((w) => ({ word: w[0], offset: at + w.index }));
      const outside = words.filter(({ offset }) => !claims.some((c) => offset >= c.from && offset < c.to));
      if (outside.length === 0) continue;
      const start = at + s[0].search(/\S/);
      const excused = exceptions.findIndex((entry, i) => (entry.within
        ? regions[i].some(([from, to]) => start >= from && start < to) : entry.sentence.test(sentence)));
      if (excused >= 0) used.add(excused);
      else unclaimed.push(`line ${lineAt(page, start)}: "${outside.map((w) => w.word).join('", "')}" in: ${sentence.slice(0, 160)}`);
    }
  }
  return { unclaimed, used };
}

// Which claims each asset carries: { file: [id, …] }.
export function carriers() {
  const map = {};
  for (const claim of CLAIMS) {
    for (const file of new Set(paths(claim).map((p) => p.slice(0, p.indexOf(':'))))) (map[file] ??= []).push(claim.id);
  }
  return map;
}

test('the register is well formed', () => {
  const ids = CLAIMS.map((c) => c.id);
  assert.deepEqual(ids.filter((id, i) => ids.indexOf(id) !== i), [], 'ids used twice');
  for (const c of CLAIMS) {
    for (const field of ['id', 'claim', 'compare', 'over']) assert.ok(typeof c[field] === 'string' && c[field].length > 0, `${c.id}: no ${field}`);
    assert.ok(typeof c.holds === 'function', `${c.id}: no predicate`);
    assert.ok(paths(c).length > 0, `${c.id}: no evidence`);
    for (const p of paths(c)) assert.match(p, /^[\w.-]+\.json:./, `${c.id}: ${p} is not FILE.json:PATH`);
  }
});

test('every claim holds on the assets', () => {
  const elements = claimElements(html);
  const failures = [];
  for (const claim of CLAIMS) {
    const lines = elements.filter((e) => e.id === claim.id).map((e) => e.line).join(', ') || 'not in the page';
    try {
      const { values, ok } = evaluate(claim);
      if (!ok) failures.push(`${claim.id} (index.html line ${lines}): "${claim.claim}" does not hold over ${claim.over}: ${JSON.stringify(values)}`);
    } catch (error) {
      failures.push(`${claim.id} (index.html line ${lines}): ${error.message}`);
    }
  }
  assert.deepEqual(failures, []);
});

test('every claim in the page has an entry, and every entry a sentence', () => {
  const elements = claimElements(html);
  const known = new Set(CLAIMS.map((c) => c.id));
  assert.deepEqual(elements.filter((e) => !known.has(e.id)).map((e) => `line ${e.line}: data-claim="${e.id}" has no entry`), []);
  const marked = new Set(elements.map((e) => e.id));
  assert.deepEqual(CLAIMS.filter((c) => !marked.has(c.id)).map((c) => `${c.id}: no element of the page carries it`), []);
});

test('the word check itself, on a hand-made page', () => {
  const page = [
    '<body><p>The model fails because it is narrow. <span data-claim="x">It is better at 64.</span></p>',
    '<p data-claim="y">So it <b>holds</b>, more or less.</p>',
    '<section id="defs"><p>Weights add up to 1, so they form a distribution.</p></section>',
    '<p>Why is it only half?</p><p>We write it \\(so\\) and <code>since</code>.</p></body>',
  ].join('\n');
  const exceptions = [{ within: /<section id="defs"/, reason: 'definitions' }, { sentence: /\?\s*$/, reason: 'a question' }, { sentence: /never matched/, reason: 'unused' }];
  const { unclaimed, used } = scan(page, exceptions);
  assert.deepEqual(unclaimed, ['line 1: "because" in: The model fails because it is narrow.']);
  assert.deepEqual([...used].sort(), [0, 1]);
  assert.deepEqual(claimElements(page).map((c) => [c.id, c.line]), [['x', 1], ['y', 2]]);
});

test('every sentence with a causal or comparative word is a claim or a listed exception', () => {
  const { unclaimed, used } = scan(html);
  assert.deepEqual(unclaimed, [], 'sentences that conclude without a claim: mark them (data-claim) and register them, or list why not');
  assert.deepEqual(EXCEPTIONS.filter((_, i) => !used.has(i)).map((e) => `${e.reason} (${e.within ?? e.sentence})`), [],
    'exceptions no sentence uses any more: delete them');
});

test('a rerun that moves a number fails the claims it carries', (t) => {
  // One changed number in a copy of an asset, as a rerun of its sweep could move it.
  const moved = (file, edit) => {
    const copy = structuredClone(ASSETS);
    edit(copy[file]);
    return copy;
  };
  const byId = (id) => CLAIMS.find((c) => c.id === id);
  const cases = [
    // The reversal sweep: Luong's seed 2 now peaks next to the letter, like the lesson's model.
    ['alignment-reversal.json', (j) => { j.runs.find((r) => r.model === 'luong' && r.seed === 2).alignment.peak_hit_rate = 0.12; },
      ['reversal-not-encoder-alone', 'remember-maps']],
    // The dial: the year read first is now kept as well as read last.
    ['dial.json', (j) => { j.settings.find((s) => s.field_order === 'ymd').models.find((m) => m.model === 'plain').fields.year.mean = 0.97; },
      ['recency-in-part', 'dial-year', 'remember-plain', 'q5-answer']],
    // The sweep: attention at width 8 now gets a fifth of the dates right.
    ['sweep.json', (j) => { j.runs.find((r) => r.model === 'attention' && r.width === 8).exact = 0.2; },
      ['route-sweep', 'one-width-misleads', 'shape-agrees', 'ranking-question', 'pitfall-one-width', 'remember-attention', 'q10-premise']],
    // The Transformer sweep: the first-state model's seed 3 now reads as well as the all-states one.
    ['transformer.json', (j) => { j.runs.find((r) => r.model === 'transformer-first' && r.seed === 3).exact = 0.99; },
      ['route-first-state', 'first-against-all', 'bottleneck-after-12', 'pitfall-recurrence', 'remember-transformer']],
  ];
  for (const [file, edit, expected] of cases) {
    const assets = moved(file, edit);
    assert.notDeepEqual(assets[file], ASSETS[file], 'the copy changed');
    const failing = CLAIMS.filter((c) => !evaluate(c, assets).ok).map((c) => c.id);
    assert.deepEqual(failing, expected, `${file}: the claims that fail once it moved`);
    t.diagnostic(`${file} changed: ${failing.join(', ')} fail`);
  }
  // assets/ itself is untouched.
  for (const claim of CLAIMS) assert.ok(evaluate(claim).ok, claim.id);
  const map = carriers();
  for (const file of Object.keys(ASSETS).sort()) t.diagnostic(`${file} carries ${(map[file] ?? []).length} claims: ${(map[file] ?? []).join(', ')}`);
  assert.deepEqual(Object.keys(ASSETS).filter((f) => !map[f]), [], 'every asset carries a claim');
});

test('the ten-minute route takes ten minutes on its own', (t) => {
  // The route's words and the captions of the six figures it opens, at 200 words a minute, plus
  // one minute to look at and try each figure (Figure 3 trains at width 32 in tens of seconds).
  const words = (fragment) => fragment.replace(/<[^>]*>|\\\(|\\\)/g, ' ').replace(/&[a-z]+;/g, ' ').split(/\s+/).filter((w) => /\w/.test(w)).length;
  const element = (pattern) => {
    const at = html.search(pattern);
    assert.ok(at >= 0, `${pattern}`);
    return html.slice(at, elementEnd(html, at));
  };
  const route = element(/<section id="route"/);
  const steps = route.slice(route.indexOf('<ol class="steps">'));
  const targets = [...steps.matchAll(/href="[^"#]*#([\w-]+)"/g)].map((m) => m[1]);
  assert.equal(targets.length, 6);
  const captions = targets.map((id) => element(new RegExp(`<figure[^>]*id="${id}"`)).match(/<figcaption[\s\S]*?<\/figcaption>/)[0]);
  const total = words(route) + captions.reduce((sum, c) => sum + words(c), 0);
  const minutes = total / 200 + targets.length;
  const stated = Number(route.match(/data-route-minutes="(\d+)"/)?.[1]);
  assert.ok(stated > 0, 'the route states its minutes in data-route-minutes');
  // And the article around the figures, as the route says, takes over an hour at that rate.
  const article = html.slice(html.indexOf('<article>'), html.search(/<section id="references"/))
    .replace(/<(script|style|table)\b[\s\S]*?<\/\1>|<form class="computation"[\s\S]*?<\/form>|\\\[[\s\S]+?\\\]/g, ' ');
  assert.match(route, /takes over an hour/);
  assert.ok(words(article) / 200 >= 60, `the article reads in ${(words(article) / 200).toFixed(0)} minutes`);
  t.diagnostic(`route: ${total} words (${(total / 200).toFixed(1)} min) + ${targets.length} figures = ${minutes.toFixed(1)} min; the article: ${(words(article) / 200).toFixed(0)} min`);
  assert.ok(minutes <= stated, `the route reads ${total} words (${(total / 200).toFixed(1)} min) and opens ${targets.length} figures: ${minutes.toFixed(1)} min, more than the ${stated} it states`);
});

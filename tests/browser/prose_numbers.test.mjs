// tests/browser/prose_numbers.test.mjs — every number in the article's prose is accounted for.
// A number a reader sees (outside formulas) must be one of:
//   - a measured span, <span data-measured="FILE:PATH">, which page_numbers.test.mjs ties to
//     assets/ (the sources' stored figures are spans too: sweep.json:source/…,
//     transformer.json:source/…);
//   - in a paragraph whose every number another test recomputes (CHECKED_ELSEWHERE);
//   - covered by one entry of FIXED_FACTS: a pattern and its reason, and where the fact is a
//     setting of ours, a check against the assets or the core's header that states it.
// An unlisted number fails with its line in web/page/index.html; so does an entry no number uses.
// Not prose: <head>, scripts, styles, <code> and <kbd> (strings typed or shown as input, not
// claims), the hand-made sentence alignment (marked data-illustrative and captioned as such),
// and the references (bibliographic).
//
// Node only: it reads the page's source, so its line numbers are the file's.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { spellingExample } from '../../web/page/spelling_example.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const read = (file) => fs.readFileSync(path.join(root, file), 'utf8');
const asset = (file) => JSON.parse(read(`assets/${file}`));

// A constant of the core, read from its header: `constexpr int NAME = VALUE;`.
function constant(header, name) {
  const match = read(header).match(new RegExp(`constexpr int ${name} = (\\d+);`));
  if (!match) throw new Error(`${header} has no constexpr int ${name}`);
  return Number(match[1]);
}

// Paragraphs whose numbers mechanism.test.mjs recomputes from the core (the worked example,
// the temperature, the scaled dot product), and Figure 2's caption, which restates them.
export const CHECKED_ELSEWHERE = ['worked-example-prose', 'temperature-prose', 'scaled-dot-prose', 'worked-example-figure'];

const sweep = asset('sweep.json'), transformer = asset('transformer.json'), published = asset('published.json');
const parameters = (model) => sweep.runs.find((r) => r.model === model && r.width === 64).parameters;
const wrongField = asset('counterfactual.json').models.find((m) => m.weights === 'attention-64.safetensors' && m.head === 'all').wrong_field;
const translation = asset('alignment-translation.json');
const translationModel = translation.summary.find((s) => s.model === 'attention').alignment;
const one = (set) => (n) => set.includes(n);
const linkMaxBytes = Number(fs.readFileSync(path.join(root, 'core/io/task_file.h'), 'utf8')
  .match(/task_link_max_chars = (\d+);/)[1]) / 4 * 3;
const spelling = spellingExample().trim().split('\n').map((line) => line.split('\t'));
// A number as written: digits, thousands separated by commas, decimals after a point.
const NUMBER = /\d+(?:,\d{3})*(?:\.\d+)?/g;

// [pattern, reason, check]: every number inside a match of the pattern is accounted for, and
// check(number) must hold for each (when given).
export const FIXED_FACTS = [
  [/Figure[\s\u00a0]+\d+/g, "a figure's label"],
  [/(?:^|\s)\d{1,2}\.\s+(?=[A-Z])/g, "a self-check question's number"],
  [/(?:Bahdanau|Luong|Transformer|Wallace|Pinter|Ney|al\.|In|the|convention)[\s,(]+(?:et al\., )?(?:2003|2014|2015|2017|2019)\b/g, 'a year of publication'],
  [/wednesday 19 september 1977|before “1977”|of 1977/g, "the lesson's example date, an input the source wrote"],
  [/\b(?:8|16|32|64)\b(?= (?:units|hidden units|numbers))|\b(?:width|at|for) (?:8|16|32|64)\b|^\s*(?:8|16|32|64)(?=\s+(?:source|ours)\b)|\b16(?= and 32 units)/g,
    'a width of the sweep (sweep.json widths)', one(sweep.widths)],
  [/\b[Ss]eeds? [1-3](?:(?:–| and )[1-3])?|seed-1/g, 'a seed of the three-seed runs (published.json seeds)', one(published.seeds)],
  [/\b\d+ epochs\b|\bepoch \d+\b/g, 'a number of epochs run (sweep.json, transformer.json)',
    one([sweep.epochs, transformer.source.epochs, ...transformer.shipped.candidates.map((c) => c.epochs), 1, 5, 7, 9])],
  [/\b(?:1,200|6,000)\b/g, 'the split sizes (sweep.json held_out_size, train_size)',
    (n) => n === sweep.held_out_size || n === sweep.train_size],
  [/\b20,544 extra parameters/g, 'attention minus plain parameters at width 64 (sweep.json)',
    (n) => n === parameters('attention') - parameters('plain') || n === 64],
  [/\b(?:year|month|day) [1-4]\b/g, "an output character's name (YYYY-MM-DD)"],
  // Counts the moved-attention paragraph derives from counterfactual.json's wrong-field moves:
  // the moves that changed nothing (steps − changed) and those that wrote neither the model's
  // own character nor the one moved to (at least changed − read).
  [/\bIn 3,037 it kept\b/g, 'wrong-field moves that left the character as it was (counterfactual.json steps − changed)',
    (n) => n === wrongField.steps - wrongField.changed],
  [/\bat least 1,128\b/g, 'wrong-field changes that did not write the attended character (counterfactual.json changed − read)',
    (n) => n === wrongField.changed - wrongField.read],
  // The translation map check's diagonal guess against the lesson's model (alignment-translation.json):
  // the ratio of their AERs to one decimal, and of the rows whose peak misses every link.
  [/\b4\.5 times the model's\b/g, "the diagonal guess's AER over the model's (alignment-translation.json)",
    (n) => n === Number((translation.diagonal_guess.aer / translationModel.aer.mean).toFixed(1))],
  [/\bnearly 40 times as many rows\b/g, "the diagonal guess's missed rows over the model's (alignment-translation.json)",
    (n) => { const r = (1 - translation.diagonal_guess.peak_hit_rate) / (1 - translationModel.peak_hit_rate.mean); return r <= n && r > 0.95 * n; }],
  [/\b(?:add|adds|sums?|summing) up to (?:less than )?1\b|\bsums? to 1\b|weight (?:is )?always 1\b|gets weight 1\b|always gets weight 1\b|\b0\/1\b|\b1 for the position|, 0 for the others|\b1 \(the (?:last|first)\)|whose weight is always 1/g,
    'a property of a softmax or of a single key: weights add up to 1'],
  [/\b[Pp]osition 0\b|counted from 0/g, 'the first input position, counted from 0'],
  [/the 0\.2 that the two dashes/g, 'two characters of ten'],
  [/written out in 27|8–27|up to 27/g, 'the generator\'s shortest and longest strings (core/data/dataset.h)',
    one([8, constant('core/data/dataset.h', 'max_input_length')])],
  [/within 4 positions|Gaussian of width 2/g, "local-p's window D and σ = D/2 (core/models/luong.h)",
    one([constant('core/models/luong.h', 'local_half_width'), constant('core/models/luong.h', 'local_half_width') / 2])],
  [/\b32 wide for input characters and 16\b/g, 'the embedding widths (core/models/params.h)',
    one([constant('core/models/params.h', 'encoder_embedding_width'), constant('core/models/params.h', 'decoder_embedding_width')])],
  [/Multi30k|WebGL2/g, 'a name'],
  [/start with a 0, so always writing 0/g, 'the calendar: months 1 to 9 are written 01 to 09'],
  [/10 epochs, a model width of 128, 8 heads/g, "the source's settings, as its notebook states them (transformer.json source)",
    one([transformer.source.epochs, transformer.source.d_model, transformer.source.heads])],
  [/\b4 heads\b|batches of 64|batch of 64 (?:strings|examples)|learning rate 0\.001|rate of 0\.001/g,
    'the training settings (transformer.json learning_rate, the trainer\'s batch of 64, 4 heads)', one([4, 64, 0.001])],
  [/for example 0\.67/g, 'a format example for a typed answer'],
  [/\bmean 0 and variance 1\b/g, "what layer norm makes of each position's vector, by definition"],
  [/score between 0 and 1\b/g, "BLEU's range, by definition"],
  [/\bdata-label="how many">0\b/g, 'the dot score has no parameters'],
  [/\b150,000 bytes\b/g, "a link's most compressed bytes (core/io/task_file.h)", (n) => n === linkMaxBytes],
  [/\b5,000 English words|\(39 phonemes/g, "the spelling example's pairs and phonemes, counted in the file the build writes",
    one([spelling.length, new Set(spelling.flatMap(([, sounds]) => sounds.split(' '))).size])],
];

// The article's prose as lines of the source: what is not prose blanked, newlines kept.
export function proseLines(html) {
  const blank = (text) => text.replace(/[^\n]/g, ' ');
  let text = html;
  // Paragraphs checked elsewhere, by id (a <p> or a <figure>).
  for (const id of CHECKED_ELSEWHERE) {
    const at = text.search(new RegExp(`<(p|figure)[^>]*\\bid="${id}"`));
    if (at < 0) throw new Error(`no element with id="${id}"`);
    const tag = text.slice(at + 1).match(/^\w+/)[0];
    const end = text.indexOf(`</${tag}>`, at) + tag.length + 3;
    text = text.slice(0, at) + blank(text.slice(at, end)) + text.slice(end);
  }
  const notProse = [
    /<!--[\s\S]*?-->/g, /<head>[\s\S]*?<\/head>/g, /<(script|style|code|kbd)\b[\s\S]*?<\/\1>/g,
    /\\\[[\s\S]+?\\\]/g, /\\\([\s\S]+?\\\)/g,
    /<span data-measured="[^"]*"(?: data-scale="[^"]*")?>[^<]*<\/span>/g,
    /<figure[^>]*data-illustrative[\s\S]*?<\/figure>/g,
    /<section id="references"[\s\S]*?<\/section>/g,
  ];
  for (const pattern of notProse) text = text.replace(pattern, blank);
  // Tags go, except the one attribute a pattern names (a table cell's label).
  text = text.replace(/<(?!td data-label="how many">)[^>]*>/g, blank);
  text = text.replace(/&nbsp;/g, '\u00a0     ').replace(/&[a-z]+;/g, (entity) => ' '.repeat(entity.length));
  return text.split('\n');
}

// [{ line, number, text }] of every number not accounted for, and the entries nothing used.
export function account(html, facts = FIXED_FACTS) {
  const unaccounted = [], used = new Set(), wrong = [];
  proseLines(html).forEach((text, index) => {
    const covered = [];
    facts.forEach(([pattern, reason, check], entry) => {
      for (const match of text.matchAll(pattern)) {
        covered.push([match.index, match.index + match[0].length]);
        used.add(entry);
        for (const n of match[0].matchAll(NUMBER)) {
          const value = Number(n[0].replaceAll(',', ''));
          if (check && !check(value)) wrong.push(`line ${index + 1}: ${value} in "${match[0].trim()}" is not ${reason}`);
        }
      }
    });
    for (const match of text.matchAll(NUMBER)) {
      const inside = covered.some(([from, to]) => match.index >= from && match.index + match[0].length <= to);
      if (!inside) unaccounted.push(`line ${index + 1}: ${match[0]} in "${text.slice(Math.max(0, match.index - 40), match.index + 30).trim()}"`);
    }
  });
  const unused = facts.filter((_, entry) => !used.has(entry)).map(([pattern, reason]) => `${reason} (${pattern})`);
  return { unaccounted, unused, wrong };
}

test('the accounting itself, on a hand-made page', () => {
  const html = [
    '<html><head><title>2 of 3</title></head><body>',
    '<p>At 64 units, <span data-measured="sweep.json:x">0.5</span> and \\(x = 3\\).</p>',
    '<p>An unlisted 42 here.</p>',
    '<p>At width 12 too, after 99 epochs.</p>',
    '<p><code>19/3/1994</code> and <kbd>7</kbd></p>',
    '<p id="worked-example-prose">0.9 is checked elsewhere</p>',
    '<p id="temperature-prose">x</p><p id="scaled-dot-prose">x</p><figure id="worked-example-figure">9</figure>',
    '</body></html>',
  ].join('\n');
  const { unaccounted, wrong } = account(html);
  // 64 is a width, the span and the formula are not prose, code and kbd are inputs: 42 and
  // 12 (not a width of the sweep) are unaccounted, and 99 epochs is no run's.
  assert.deepEqual(unaccounted, ['line 3: 42 in "An unlisted 42 here."', 'line 4: 12 in "At width 12 too, after 99 epochs."']);
  assert.equal(wrong.length, 1);
  assert.match(wrong[0], /^line 4: 99 in "99 epochs"/);
});

test('every number in the article\'s prose is measured, checked elsewhere or a listed fact', () => {
  const { unaccounted, unused, wrong } = account(read('web/page/index.html'));
  assert.deepEqual(unaccounted, [], 'numbers in the prose that are neither a span nor a listed fact');
  assert.deepEqual(wrong, [], 'listed facts that disagree with the assets or the core');
  assert.deepEqual(unused, [], 'listed facts that no number uses any more: delete them');
});

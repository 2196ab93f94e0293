// tests/browser/claims.mjs — the claims register: every conclusion the article draws from our
// measurements, tied to the assets it rests on. claims.test.mjs evaluates each predicate against
// assets/ and checks that web/page/index.html marks each claim (data-claim="ID" on the element,
// or on a <span> around the sentence) and that every sentence with a causal or comparative word
// is inside a claim or covered by an EXCEPTIONS entry. docs/claims.md says how to add one.
//
// An entry:
//   id        the value of data-claim in the page;
//   claim     the claim in one line;
//   compare   what is set beside what, like for like (task, width, epochs, seeds; or chance);
//   over      where the predicate must hold: 'seed 1' (the shipped or swept model), 'every seed',
//             'the mean of seeds 1–3', 'one string', …;
//   evidence  names → FILE:PATH (the paths of page_numbers.test.mjs, resolved by asset_path.mjs),
//             or a list of paths (every seed, every position …), read into numbers;
//   holds     the predicate on those numbers, with the margin the words imply.

// Paths for seeds 1–3 of one run: `{s}` stands for the seed.
const seeds = (template) => [1, 2, 3].map((s) => template.replaceAll('{s}', s));
// A list of paths over indices.
const each = (template, indices) => indices.map((i) => template.replaceAll('{i}', i));
const min = (xs) => Math.min(...xs), max = (xs) => Math.max(...xs);
const spread = (xs) => max(xs) - min(xs);
const all = (xs, f) => xs.every(f);

// Frequently used paths.
const sweep = (model, width, field) => `sweep.json:runs/[model=${model},width=${width}]/${field}`;
const dialField = (order, field, model = 'plain', stat = 'mean') => order === 'dmy'
  ? `dial.json:settings/1/models/[model=${model}]/fields/${field}/${stat}`
  : `dial.json:settings/[field_order=${order}]/models/[model=${model}]/fields/${field}/${stat}`;
const dialExact = (order, stat = 'mean', model = 'attention') => `dial.json:settings/[field_order=${order}]/models/[model=${model}]/exact/${stat}`;
const epochs = [...Array(12).keys()];  // a 12-epoch run's epoch_train_loss indices
const tf = (model, seed, field) => `transformer.json:runs/[model=${model},width=64,seed=${seed}]/${field}`;
const tfSummary = (model, field) => `transformer.json:summary/[model=${model}]/${field}`;
const pub = (model, width, stat, extra = '') => `published.json:summary/[model=${model}${extra},width=${width}]/exact_${stat}`;
const luongPub = (scorer, feeding, width, stat, model = 'luong') => `published.json:summary/[model=${model},scorer=${scorer},input_feeding=${feeding},width=${width}]/exact_${stat}`;
const align = (task, model, seed, field) => `alignment-${task}.json:runs/[model=${model},seed=${seed}]/${field}`;
const alignMean = (task, model, field) => `alignment-${task}.json:summary/[model=${model}]/alignment/${field}/mean`;
const cf = (weights, head, set, field) => `counterfactual.json:models/[weights=${weights},head=${head}]/${set}/${field}`;
const GRU = 'attention-64.safetensors', TF = 'transformer-all-64.safetensors';
const chance = (i) => `chance.json:majority_share/${i}`;

// Shared pieces of evidence and predicates, for claims the page makes in more than one place.
const recencyEvidence = {
  yearLast: [dialField('dmy', 'year'), dialField('mdy', 'year')],
  yearEarlier: [dialField('ymd', 'year'), dialField('ydm', 'year'), dialField('myd', 'year'), dialField('dym', 'year')],
  dayAnywhere: ['dmy', 'ymd', 'mdy', 'ydm', 'dym', 'myd'].map((o) => dialField(o, 'day')),
  dayChance: 'dial.json:settings/1/chance/day',
};
// The year is kept when read last (≥ 0.95 in both orders) and not when read earlier (≤ 0.5);
// the day is rarely right wherever it stands: on the mean of the seeds at most about one time in
// six, which is also at most four times chance (0.045 × 4 = 0.18).
const recencyHolds = (e) => min(e.yearLast) >= 0.95 && max(e.yearEarlier) <= 0.5 && max(e.dayAnywhere) <= 4 * e.dayChance;
// The day's places overlap: a seed reading it first beats the worst seed of each order reading it last.
const dayOverlapEvidence = {
  firstBest: [dialField('dmy', 'day', 'plain', 'max'), dialField('dym', 'day', 'plain', 'max')],
  lastWorst: [dialField('ymd', 'day', 'plain', 'min'), dialField('myd', 'day', 'plain', 'min')],
};
const dayOverlapHolds = (e) => max(e.firstBest) > max(e.lastWorst);

const lengthEvidence = {
  ours: each(sweep('plain', 64, 'length_buckets/{i}'), [0, 1, 2, 3]),
  source: each('sweep.json:source/length_buckets_plain_64/{i}', [0, 1, 2, 3]),
};
// No trend: within 0.05 of each other, and neither rising nor falling through the four groups.
const monotone = (xs) => xs.every((x, i) => i === 0 || x >= xs[i - 1]) || xs.every((x, i) => i === 0 || x <= xs[i - 1]);
const lengthHolds = (e) => spread(e.ours) <= 0.05 && spread(e.source) <= 0.05 && !monotone(e.ours) && !monotone(e.source);

const perCharEvidence = { plainExact: sweep('plain', 64, 'exact'), plainPerChar: sweep('plain', 64, 'per_char'), yearOnly: 'chance.json:year_and_dashes_per_char' };

const reversalShiftEvidence = {
  exact: [align('reversal', 'attention', 1, 'exact'), align('reversal', 'attention', 3, 'exact')],
  onLetter: [align('reversal', 'attention', 1, 'alignment/peak_hit_rate'), align('reversal', 'attention', 3, 'alignment/peak_hit_rate')],
  withinOne: [align('reversal', 'attention', 1, 'alignment/peak_near_rate'), align('reversal', 'attention', 3, 'alignment/peak_near_rate')],
};
// Right almost always (≥ 0.95 exact), the peak on the letter rarely (≤ 0.15), next to it almost always (≥ 0.99).
const reversalShiftHolds = (e) => min(e.exact) >= 0.95 && max(e.onLetter) <= 0.15 && min(e.withinOne) >= 0.99;

const firstAllEvidence = {
  first: seeds(tf('transformer-first', '{s}', 'exact')),
  all: seeds(tf('transformer-all', '{s}', 'exact')),
};
// At every seed the all-states model is at least 0.3 above the first-state one, and the
// first-state model's best is 0.25 or more below the all-states model's worst.
const firstAllHolds = (e) => all([0, 1, 2], (i) => e.all[i] - e.first[i] >= 0.3) && min(e.all) - max(e.first) >= 0.25;
const stillRisingEvidence = { epoch9: 'transformer.json:shipped/models/transformer-first/curve/[epoch=9]/exact', epoch12: 'transformer.json:shipped/models/transformer-first/curve/[epoch=12]/exact' };
const stillRisingHolds = (e) => e.epoch12 - e.epoch9 >= 0.02;

const costEvidence = {
  plainParameters: sweep('plain', 64, 'parameters'), attentionParameters: sweep('attention', 64, 'parameters'),
  plainSeconds: sweep('plain', 64, 'train_seconds'), attentionSeconds: sweep('attention', 64, 'train_seconds'),
  sourcePlainSeconds: 'sweep.json:source/seconds_64/plain', sourceAttentionSeconds: 'sweep.json:source/seconds_64/attention',
};
// "About half again as many": a ratio between 1.4 and 1.7; slower in both runs, by at least a fifth.
const costHolds = (e) => e.attentionParameters / e.plainParameters >= 1.4 && e.attentionParameters / e.plainParameters <= 1.7
  && e.attentionSeconds >= 1.2 * e.plainSeconds && e.sourceAttentionSeconds >= 1.2 * e.sourcePlainSeconds;

const shapeEvidence = {
  oursW8: [sweep('plain', 8, 'exact'), sweep('attention', 8, 'exact')], sourceW8: ['sweep.json:source/plain_exact/0', 'sweep.json:source/attention_exact/0'],
  oursAttention64: sweep('attention', 64, 'exact'), sourceAttention64: 'sweep.json:source/attention_exact/3',
  oursPlain64: sweep('plain', 64, 'exact'), sourcePlain64: 'sweep.json:source/plain_exact/3',
};
// Nothing at 8 units (≤ 0.01 exact), almost everything for attention at 64 (≥ 0.99), nothing for plain at 64 (≤ 0.02).
const shapeHolds = (e) => max(e.oursW8) <= 0.01 && max(e.sourceW8) <= 0.01 && min([e.oursAttention64, e.sourceAttention64]) >= 0.99
  && max([e.oursPlain64, e.sourcePlain64]) <= 0.02;

const bahdanau16Evidence = { bahdanauWorst: pub('bahdanau', 16, 'min'), lessonBest: pub('attention', 16, 'max') };
const bahdanau16Holds = (e) => e.bahdanauWorst - e.lessonBest >= 0.1;
const concatSeparatesEvidence = { concatWorst: luongPub('concat', false, 16, 'min'), lessonBest: pub('attention', 16, 'max'), dotBest: luongPub('dot', false, 16, 'max') };
const concatSeparatesHolds = (e) => e.concatWorst > e.lessonBest && e.concatWorst > e.dotBest;
const concatGeneralEvidence = {
  concatMean: luongPub('concat', false, 16, 'mean'), generalMean: luongPub('general', false, 16, 'mean'),
  concatLowest: luongPub('concat', false, 16, 'min'), generalHighest: luongPub('general', false, 16, 'max'),
};
const concatGeneralHolds = (e) => e.concatMean > e.generalMean && e.generalHighest > e.concatLowest;
const globalDesigns64 = [pub('attention', 64, 'mean'), pub('bahdanau', 64, 'mean'), luongPub('dot', false, 64, 'mean'), luongPub('general', false, 64, 'mean'),
  luongPub('concat', false, 64, 'mean'), luongPub('general', true, 64, 'mean')];

const luongReversalEvidence = {
  luongOnLetter: [align('reversal', 'luong', 2, 'alignment/peak_hit_rate'), align('reversal', 'luong', 1, 'alignment/peak_hit_rate')],
  luongExact: [align('reversal', 'luong', 2, 'exact'), align('reversal', 'luong', 1, 'exact')],
  lessonOnLetter: align('reversal', 'attention', 1, 'alignment/peak_hit_rate'),
};
// Luong's model, at its two seeds that learned (≥ 0.95 exact), peaks on the letter in ≥ 0.9 of the rows; the lesson's in ≤ 0.15.
const luongReversalHolds = (e) => min(e.luongExact) >= 0.95 && min(e.luongOnLetter) >= 0.9 && e.lessonOnLetter <= 0.15;

export const CLAIMS = [
  // ---- The ten-minute route ----
  {
    id: 'route-train-32', claim: 'At width 32 the plain model\'s exact match stays near zero while the attention model\'s climbs.',
    compare: 'plain against attention, width 32, 12 epochs, seed 1 (the sweep Figure 3 repeats)', over: 'seed 1',
    evidence: { plain: sweep('plain', 32, 'exact'), attention: sweep('attention', 32, 'exact') },
    holds: (e) => e.plain <= 0.01 && e.attention >= 0.9,
  },
  {
    id: 'route-sweep', claim: 'Attention gets almost no date right at 8 units and all at 64; the plain model keeps the year but not the day.',
    compare: 'attention at widths 8 and 64; the plain model\'s year and day digits at 64 against chance', over: 'seed 1',
    evidence: { attention8: sweep('attention', 8, 'exact'), attention64: sweep('attention', 64, 'exact'),
      year: each(sweep('plain', 64, 'per_position/{i}'), [0, 1, 2, 3]), day: each(sweep('plain', 64, 'per_position/{i}'), [8, 9]), dayChance: [chance(8), chance(9)] },
    holds: (e) => e.attention8 <= 0.01 && e.attention64 >= 0.999 && min(e.year) >= 0.99 && all([0, 1], (i) => e.day[i] <= e.dayChance[i] + 0.005),
  },
  {
    id: 'route-reversal', claim: 'The shipped reversal model reverses the strings, yet its peaks sit one letter off the links.',
    compare: 'the lesson\'s attention model on the reversal, 30 epochs: exact match against where its peaks fall', over: 'seed 1 (shipped) and seed 3',
    evidence: reversalShiftEvidence, holds: reversalShiftHolds,
  },
  {
    id: 'route-first-state', claim: 'The Transformer allowed one encoder state writes far fewer dates right than the one reading all.',
    compare: 'transformer-first against transformer-all, width 64, 12 epochs', over: 'seed 1 (shipped), and every seed',
    evidence: firstAllEvidence, holds: firstAllHolds,
  },
  // ---- The bottleneck ----
  {
    id: 'recency-in-part', claim: 'Recency holds only in part: the year is kept when read last and not when read first, but the day is rarely right wherever it stands.',
    compare: 'the plain model with the fields in all six orders, 12 epochs, width 64', over: 'the mean of seeds 1–3',
    evidence: recencyEvidence, holds: recencyHolds,
  },
  // ---- The experiment ----
  {
    id: 'format-hardly-matters', claim: 'The input format hardly matters to either model.',
    compare: 'per-character accuracy (plain) and exact match (attention) in each of the six formats, width 64', over: 'seed 1',
    evidence: { plain: each(sweep('plain', 64, 'per_format/{i}'), [0, 1, 2, 3, 4, 5]), attention: each(sweep('attention', 64, 'per_format_exact/{i}'), [0, 1, 2, 3, 4, 5]) },
    // "Writes every string of every format right": exact match 1 in each format.
    holds: (e) => spread(e.plain) <= 0.03 && all(e.attention, (x) => x === 1),
  },
  {
    id: 'training-curves', claim: 'The plain model\'s loss levels off while the attention model\'s keeps falling.',
    compare: 'training loss per epoch, plain against attention, width 64, same seed and batches', over: 'seed 1',
    evidence: { plain: each(sweep('plain', 64, 'epoch_train_loss/{i}'), [8, 11]), attention: each(sweep('attention', 64, 'epoch_train_loss/{i}'), [8, 11]) },
    // Over the last three epochs the plain loss moves by under 0.05 and stays above 0.5; attention's ends under 0.05.
    holds: (e) => e.plain[0] - e.plain[1] <= 0.05 && e.plain[1] >= 0.5 && e.attention[1] <= 0.05,
  },
  {
    id: 'per-char-vs-exact', claim: 'Per-character accuracy can look respectable while exact match stays near zero.',
    compare: 'the plain model\'s two scores at width 64', over: 'seed 1',
    evidence: perCharEvidence, holds: (e) => e.plainPerChar >= 0.7 && e.plainExact <= 0.01,
  },
  // ---- One width is not enough ----
  {
    id: 'one-width-misleads', claim: 'At 8 units neither model gets a date right, so a study run only there would conclude attention does nothing.',
    compare: 'plain against attention at width 8, the source\'s run and ours; attention at 64 for contrast', over: 'seed 1',
    evidence: shapeEvidence, holds: shapeHolds,
  },
  {
    id: 'source-gap-16-32', claim: 'In the source the gap opens between 16 and 32 units, while its plain model barely moves.',
    compare: 'the source\'s attention and plain exact match at 16 and 32 units', over: 'the source\'s one run',
    evidence: { attention: ['sweep.json:source/attention_exact/1', 'sweep.json:source/attention_exact/2'], plain: ['sweep.json:source/plain_exact/1', 'sweep.json:source/plain_exact/2'] },
    holds: (e) => e.attention[0] <= 0.05 && e.attention[1] >= 0.9 && max(e.plain) <= 0.01,
  },
  {
    id: 'ours-gap-earlier', claim: 'Our gap opens a step earlier: attention is already at about half at 16 units, while the plain model never passes 0.02.',
    compare: 'our attention at 16 against the source\'s at 16; our plain model at every width', over: 'seed 1 (plain at 64: every seed)',
    evidence: { ours16: sweep('attention', 16, 'exact'), source16: 'sweep.json:source/attention_exact/1', ours32: sweep('attention', 32, 'exact'),
      plain: [8, 16, 32, 64].map((w) => sweep('plain', w, 'exact')), plainSeeds: seeds(tf('plain', '{s}', 'exact')) },
    holds: (e) => e.ours16 >= 0.5 && e.ours16 - e.source16 >= 0.4 && e.ours32 >= 0.9 && max(e.plain) <= 0.01 && max(e.plainSeeds) <= 0.02,
  },
  {
    id: 'small-models-learn-more', claim: 'Our smallest plain model learns far more in the same 12 epochs than the source\'s; our attention model at that width only a little more.',
    compare: 'per-character accuracy at width 8, ours against the source\'s, 12 epochs each, plain and attention', over: 'seed 1',
    evidence: { ours: sweep('plain', 8, 'per_char'), source: 'sweep.json:source/plain_per_char/0',
      oursAttention: sweep('attention', 8, 'per_char'), sourceAttention: 'sweep.json:source/attention_per_char/0' },
    // Far more: ≥ 0.3; only a little ahead: above, by at most 0.1.
    holds: (e) => e.ours - e.source >= 0.3 && e.oursAttention > e.sourceAttention && e.oursAttention - e.sourceAttention <= 0.1,
  },
  {
    id: 'dash-shape', claim: 'The source\'s smallest plain model had not learned the fixed shape of the answer; ours had.',
    compare: 'the source\'s per-character accuracy at width 8 against the 0.2 that two dashes of ten are worth; our first dash', over: 'seed 1',
    evidence: { source: 'sweep.json:source/plain_per_char/0', ourDash: sweep('plain', 8, 'per_position/4') },
    holds: (e) => e.source < 0.2 && e.ourDash >= 0.9,
  },
  {
    id: 'w8-near-constant', claim: 'Our models at 8 units are little above one fixed string.',
    compare: 'per-character accuracy at width 8 against the most common character at each position (chance.json)', over: 'seed 1',
    evidence: { plain: sweep('plain', 8, 'per_char'), attention: sweep('attention', 8, 'per_char'), constant: 'chance.json:constant_per_char' },
    // "Little above": above it, by less than 0.12.
    holds: (e) => all([e.plain, e.attention], (x) => x > e.constant && x - e.constant <= 0.12),
  },
  {
    id: 'parameters-match', claim: 'At 64 units the source\'s parameter counts and ours match exactly.',
    compare: 'plain and attention parameter counts at width 64', over: 'the model\'s shape',
    evidence: { ours: [sweep('plain', 64, 'parameters'), sweep('attention', 64, 'parameters')], source: ['sweep.json:source/parameters_64/plain', 'sweep.json:source/parameters_64/attention'] },
    holds: (e) => e.ours[0] === e.source[0] && e.ours[1] === e.source[1],
  },
  {
    id: 'seed-spread-16', claim: 'At 16 units the seed moves a cell a lot but does not close the gap to the source.',
    compare: 'our attention model at width 16, seeds 1–3, against the source\'s one run', over: 'every seed',
    evidence: { lowest: pub('attention', 16, 'min'), highest: pub('attention', 16, 'max'), source: 'sweep.json:source/attention_exact/1' },
    holds: (e) => e.highest - e.lowest >= 0.2 && e.lowest - e.source >= 0.4,
  },
  {
    id: 'source-within-seeds', claim: 'At 64 units the source\'s plain exact match lies within our plain model\'s seeds.',
    compare: 'the source\'s plain model at 64 against our seeds 1–3', over: 'every seed',
    evidence: { lowest: tfSummary('plain', 'exact/min'), highest: tfSummary('plain', 'exact/max'), source: 'sweep.json:source/plain_exact/3' },
    holds: (e) => e.source >= e.lowest && e.source <= e.highest,
  },
  {
    id: 'shape-agrees', claim: 'Both runs agree on the shape: attention needs some width, then pays almost completely.',
    compare: 'the source\'s run and ours, exact match at 8 and 64 units', over: 'seed 1',
    evidence: shapeEvidence, holds: shapeHolds,
  },
  // ---- What the plain model keeps ----
  {
    id: 'yardstick', claim: 'Some characters can be guessed without reading anything, so per-position accuracy needs chance beside it.',
    compare: 'always writing the most common month digit', over: 'the held-out split',
    evidence: { monthFirst: chance(5) }, holds: (e) => e.monthFirst >= 0.5,
  },
  {
    id: 'plain-keeps-year', claim: 'The plain model writes every year digit right; the source\'s misses its fourth now and then.',
    compare: 'the plain model\'s year digits at width 64, ours and the source\'s', over: 'seed 1',
    evidence: { ours: each(sweep('plain', 64, 'per_position/{i}'), [0, 1, 2, 3]), sourceFourth: 'sweep.json:source/per_position_64/plain/3' },
    // "Right every time": every year digit of every held-out string.
    holds: (e) => all(e.ours, (x) => x === 1) && e.sourceFourth < 0.999 && e.sourceFourth >= 0.9,
  },
  {
    id: 'plain-month-day-chance', claim: 'At seed 1 the plain model\'s month and day are at or below chance: what it writes shows no sign that it read them.',
    compare: 'the plain model\'s month and day digits at width 64 against always writing the most common digit', over: 'seed 1',
    evidence: { plain: each(sweep('plain', 64, 'per_position/{i}'), [5, 6, 8, 9]), chance: [5, 6, 8, 9].map(chance) },
    // Within 0.001 of chance at the first digits, below it at the second digits.
    holds: (e) => Math.abs(e.plain[0] - e.chance[0]) <= 0.001 && Math.abs(e.plain[2] - e.chance[2]) <= 0.001 && e.plain[1] < e.chance[1] && e.plain[3] < e.chance[3],
  },
  {
    id: 'plain-seeds-2-3', claim: 'Seed 3 looks like seed 1; only seed 2 learned most of the month, and its day stays at or below chance.',
    compare: 'the plain model\'s month and day digits at width 64, seeds 2 and 3, against chance', over: 'seeds 2 and 3',
    evidence: { seed3: each(tf('plain', 3, 'per_position/{i}'), [5, 6, 8, 9]), seed2Month: each(tf('plain', 2, 'per_position/{i}'), [5, 6]),
      seed2Day: each(tf('plain', 2, 'per_position/{i}'), [8, 9]), chance: [5, 6, 8, 9].map(chance) },
    holds: (e) => all([0, 1, 2, 3], (i) => e.seed3[i] <= e.chance[i] + 0.01) && e.seed2Month[0] >= 0.9 && e.seed2Month[1] >= 0.5
      && e.seed2Day[0] <= e.chance[2] && e.seed2Day[1] <= e.chance[3],
  },
  {
    id: 'cliff', claim: 'A cliff, not a slow fading: the year, read last, is kept; the month and day, read earlier, are lost, the month sometimes learned.',
    compare: 'per-position accuracy of the plain model at width 64 against chance, seeds 1–3', over: 'every seed (the month: seeds 1 and 3)',
    evidence: { year: [1, 2, 3].flatMap((s) => each(tf('plain', s, 'per_position/{i}'), [0, 1, 2, 3])),
      day: [1, 2, 3].flatMap((s) => each(tf('plain', s, 'per_position/{i}'), [8, 9])),
      monthLost: [1, 3].flatMap((s) => each(tf('plain', s, 'per_position/{i}'), [5, 6])), dayChance: [chance(8), chance(9)], monthChance: [chance(5), chance(6)] },
    holds: (e) => min(e.year) >= 0.97 && max(e.day) <= max(e.dayChance) + 0.005 && all(e.monthLost, (x, i) => x <= e.monthChance[i % 2] + 0.005),
  },
  {
    id: 'last-field-not-rule', claim: 'Being read last is not enough: a month or a day read last fares far worse than the year read last.',
    compare: 'the plain model\'s fields when read last, in the orders that put each last, 12 epochs, width 64', over: 'the mean of seeds 1–3',
    evidence: { yearLast: [dialField('dmy', 'year'), dialField('mdy', 'year')], monthLast: [dialField('ydm', 'month'), dialField('dym', 'month')],
      dayLast: [dialField('ymd', 'day'), dialField('myd', 'day')] },
    // Far worse: the month at least 0.3 below the year, the day at least 0.5 below.
    holds: (e) => min(e.yearLast) - max(e.monthLast) >= 0.3 && min(e.yearLast) - max(e.dayLast) >= 0.5,
  },
  {
    id: 'attention-every-position', claim: 'The attention model gets every output position right.',
    compare: 'per-position accuracy at width 64', over: 'seed 1',
    evidence: { positions: each(sweep('attention', 64, 'per_position/{i}'), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]) },
    holds: (e) => min(e.positions) >= 0.999,
  },
  {
    id: 'per-char-year-only', claim: 'A model that read only the year scores about as much per character as our plain model, so per-character accuracy alone does not show it read more.',
    compare: 'the plain model\'s per-character accuracy at width 64 against copying the year and guessing the rest (chance.json)', over: 'seeds 1 and 3 (seed 2, which learned the month, is above it)',
    evidence: { ...perCharEvidence, seed3: tf('plain', 3, 'per_char'), seed2: tf('plain', 2, 'per_char') },
    holds: (e) => e.plainPerChar <= e.yearOnly && e.seed3 <= e.yearOnly && e.seed2 > e.yearOnly,
  },
  // ---- Length ----
  {
    id: 'no-length-trend', claim: 'Length is not what hurts the plain model on these dates: its accuracy by input length is flat.',
    compare: 'plain per-character accuracy in four groups of input length (quartiles), width 64, ours and the source\'s', over: 'seed 1',
    evidence: lengthEvidence, holds: lengthHolds,
  },
  {
    id: 'consistent-with-recency', claim: 'The fields the plain model lost are the ones read first, farthest from the end: consistent with recency.',
    compare: 'the year\'s and day\'s digits at width 64 (the day read first in every format)', over: 'seed 1',
    evidence: { year: each(sweep('plain', 64, 'per_position/{i}'), [0, 1, 2, 3]), day: each(sweep('plain', 64, 'per_position/{i}'), [8, 9]), dayChance: [chance(8), chance(9)] },
    holds: (e) => min(e.year) >= 0.99 && all([0, 1], (i) => e.day[i] <= e.dayChance[i] + 0.005),
  },
  // ---- Field order ----
  {
    id: 'dial-year', claim: 'Read last, the year is kept; read first or second it is not, and those earlier places are not ranked by how long ago they were read.',
    compare: 'the plain model\'s year with the fields in six orders, 12 epochs, width 64', over: 'the mean of seeds 1–3',
    evidence: { last: [dialField('dmy', 'year'), dialField('mdy', 'year')], first: [dialField('ymd', 'year'), dialField('ydm', 'year')], second: [dialField('myd', 'year'), dialField('dym', 'year')] },
    // Kept: ≥ 0.95; lost: ≤ 0.5; not ranked: the best first place beats the worst second place.
    holds: (e) => min(e.last) >= 0.95 && max([...e.first, ...e.second]) <= 0.5 && max(e.first) > min(e.second),
  },
  {
    id: 'dial-day', claim: 'Three seeds show no effect of the day\'s place; wherever it stands it is right at best about one time in six, so something besides its place keeps the plain model from it.',
    compare: 'the plain model\'s day in six orders (read first, second, last) against always writing the most common day, and against the year and month read last', over: 'the mean of seeds 1–3, and every seed',
    evidence: { means: ['dmy', 'dym', 'mdy', 'ydm', 'ymd', 'myd'].map((o) => dialField(o, 'day')), chance: 'dial.json:settings/1/chance/day',
      ...dayOverlapEvidence,
      yearLast: dialField('dmy', 'year'), monthLast: [dialField('ydm', 'month'), dialField('dym', 'month')] },
    // No effect that the seeds show: a seed reading the day first beats the worst seed of each
    // order reading it last. At best about one time in six: the best mean between 0.14 and 0.18
    // (four times chance). Besides its place: read last, the year is right ≥ 0.95, the month 0.4–0.6.
    holds: (e) => dayOverlapHolds(e) && max(e.means) <= 4 * e.chance && max(e.means) >= 0.14
      && e.yearLast >= 0.95 && min(e.monthLast) >= 0.4 && max(e.monthLast) <= 0.6,
  },
  {
    id: 'fixed-format', claim: 'One fixed format does not rescue the plain model, while attention works in every order.',
    compare: 'exact match with every string dd mm yyyy, and attention with the fields in six orders', over: 'the mean of seeds 1–3 (attention\'s lowest seed shown beside it)',
    evidence: { plain: 'dial.json:settings/[formats=5]/models/[model=plain]/exact/mean', attention: 'dial.json:settings/[formats=5]/models/[model=attention]/exact/mean',
      everyOrder: ['ymd', 'mdy', 'ydm', 'dym', 'myd'].map((o) => dialExact(o)), lowestSeed: ['ymd', 'mdy', 'ydm', 'dym', 'myd'].map((o) => dialExact(o, 'min')) },
    holds: (e) => e.plain <= 0.05 && e.attention >= 0.99 && min(e.everyOrder) >= 0.9 - 1e-9 && min(e.lowestSeed) >= 0.7,
  },
  // ---- Where the attention model looks ----
  {
    id: 'first-guard', claim: 'A tidy map proves little unless the right alignment is known: the reversal has a right model with a map one letter off.',
    compare: 'the shipped reversal model: exact match against peak on the letter', over: 'seeds 1 and 3',
    evidence: reversalShiftEvidence, holds: reversalShiftHolds,
  },
  {
    id: 'lesson-peaks', claim: 'On the lesson\'s date the year\'s digits look at the year, the month\'s at the month word, the day\'s at the day: the model learned the reordering.',
    compare: 'the peak of each output row, shipped attention model, one string', over: 'one string, seed 1',
    evidence: { year: each('gradient_path.json:attention/peaks/{i}/position', [0, 1, 2, 3]), month: each('gradient_path.json:attention/peaks/{i}/position', [5, 6]),
      day: each('gradient_path.json:attention/peaks/{i}/position', [8, 9]) },
    // monday 19 september 1977: the day at 7–8, the month word at 10–18, the year at 20–23.
    holds: (e) => all(e.year, (p) => p >= 20 && p <= 23) && all(e.month, (p) => p >= 10 && p <= 18) && all(e.day, (p) => p >= 7 && p <= 8),
  },
  {
    id: 'state-not-character', claim: 'The peak table shows a state is not the character under it: the month on the p, a 9 on the 7 before it.',
    compare: 'the peaks of the month\'s digits and of the year\'s second digit, one string', over: 'one string, seed 1',
    evidence: { month: each('gradient_path.json:attention/peaks/{i}/position', [5, 6]), yearSecond: 'gradient_path.json:attention/peaks/1/position' },
    // The p of september is input 12; the first 7 of 1977 is input 22.
    holds: (e) => all(e.month, (p) => p === 12) && e.yearSecond === 22,
  },
  {
    id: 'dash-weight', claim: 'Each dash puts most of its weight on one of the day\'s digits.',
    compare: 'the dashes\' peaks, one string', over: 'one string, seed 1',
    evidence: { positions: each('gradient_path.json:attention/peaks/{i}/position', [4, 7]), weights: each('gradient_path.json:attention/peaks/{i}/weight', [4, 7]),
      day: each('gradient_path.json:attention/peaks/{i}/position', [8, 9]) },
    holds: (e) => all(e.positions, (p) => e.day.includes(p)) && min(e.weights) > 0.5,
  },
  // ---- Moving the attention ----
  {
    id: 'third-character', claim: 'In over a thousand moves the model wrote a third character: the moved context sent the output elsewhere.',
    compare: 'wrong-field moves of the shipped attention model: changes less readings', over: 'seed 1 (shipped), 9,600 moves',
    evidence: { changed: cf(GRU, 'all', 'wrong_field', 'changed'), read: cf(GRU, 'all', 'wrong_field', 'read'),
      onLink: align('dates', 'attention', 1, 'alignment/peak_hit_rate'), withinOne: align('dates', 'attention', 1, 'alignment/peak_near_rate') },
    // Over a thousand; and the map check finds the same model's peak one off in about a fifth of the rows (0.15–0.25).
    holds: (e) => e.changed - e.read >= 1000 && e.withinOne - e.onLink >= 0.15 && e.withinOne - e.onLink <= 0.25,
  },
  {
    id: 'reads-position', claim: 'A move to the neighbouring digit already changes the character about half the time, a move to another field somewhat more often, in each field: the model reads a digit\'s position, not only its field.',
    compare: 'wrong-field against right-field moves, pooled (different steps: 9,600 against 7,132) and field by field (like for like)', over: 'seed 1 (shipped)',
    evidence: { wrong: cf(GRU, 'all', 'wrong_field', 'changed_rate'), right: cf(GRU, 'all', 'right_field', 'changed_rate'),
      wrongSteps: cf(GRU, 'all', 'wrong_field', 'steps'), rightSteps: cf(GRU, 'all', 'right_field', 'steps'),
      wrongByField: ['year', 'month', 'day'].map((f) => cf(GRU, 'all', 'wrong_field', `per_field/${f}/changed_rate`)),
      rightByField: ['year', 'month', 'day'].map((f) => cf(GRU, 'all', 'right_field', `per_field/${f}/changed_rate`)) },
    // About half: 0.4–0.6; somewhat more: 0.05–0.3 more, pooled and in each field. The step sets differ, as the page says.
    holds: (e) => e.right >= 0.4 && e.right <= 0.6 && e.wrong - e.right >= 0.05 && e.wrong - e.right <= 0.3 && e.rightSteps < e.wrongSteps
      && all([0, 1, 2], (i) => e.wrongByField[i] - e.rightByField[i] >= 0.05 && e.wrongByField[i] - e.rightByField[i] <= 0.3),
  },
  {
    id: 'transformer-reads-moved', claim: 'The one-layer Transformer wrote the attended character after almost every move, far more often than the GRU: how much a map explains differs between models and can be measured.',
    compare: 'the same wrong-field moves, all heads, Transformer against the lesson\'s GRU', over: 'seed 1 (shipped)',
    evidence: { transformer: cf(TF, 'all', 'wrong_field', 'read_rate'), gru: cf(GRU, 'all', 'wrong_field', 'read_rate') },
    holds: (e) => e.transformer >= 0.9 && e.transformer - e.gru >= 0.25,
  },
  // ---- Checking a map ----
  {
    id: 'translation-map', claim: 'Translation: a good map, and a diagonal guess well behind it (4.5 times its AER, nearly 40 times the rows missed) but far from zero, because the grammar is mostly monotone.',
    compare: 'the lesson\'s model against the diagonal guess, 1,200 held-out sentences', over: 'the mean of seeds 1–3',
    evidence: { modelOnLink: alignMean('translation', 'attention', 'peak_hit_rate'), modelAer: alignMean('translation', 'attention', 'aer'),
      guessOnLink: 'alignment-translation.json:diagonal_guess/peak_hit_rate', guessAer: 'alignment-translation.json:diagonal_guess/aer' },
    // "4.5 times" the AER: the ratio rounds to 4.5; "nearly 40 times as many rows" missed: 35–40.
    holds: (e) => e.modelOnLink >= 0.99 && e.modelAer <= 0.1 && e.guessOnLink >= 0.75 && (e.guessAer / e.modelAer).toFixed(1) === '4.5'
      && (1 - e.guessOnLink) / (1 - e.modelOnLink) >= 35 && (1 - e.guessOnLink) / (1 - e.modelOnLink) <= 40,
  },
  {
    id: 'dates-map', claim: 'Dates: the lesson\'s model peaks near the field, one position off in nearly a quarter of the rows; Luong\'s is about as near, Bahdanau\'s nearer.',
    compare: 'peak on a link and within one, 1,200 held-out dates, lesson against Luong global and Bahdanau', over: 'the mean of seeds 1–3',
    evidence: { lessonOn: alignMean('dates', 'attention', 'peak_hit_rate'), lessonNear: alignMean('dates', 'attention', 'peak_near_rate'),
      luongOn: alignMean('dates', 'luong', 'peak_hit_rate'), bahdanauOn: alignMean('dates', 'bahdanau', 'peak_hit_rate') },
    // Nearly a quarter: 0.2–0.25; about as near: within 0.05; nearer: 0.15 more.
    holds: (e) => e.lessonNear - e.lessonOn >= 0.2 && e.lessonNear - e.lessonOn < 0.25 && Math.abs(e.luongOn - e.lessonOn) <= 0.05 && e.bahdanauOn - e.lessonOn >= 0.15,
  },
  {
    id: 'dates-diagonal', claim: 'On the dates the diagonal guess is almost always wrong: the answer reverses the fields but not the digits inside them.',
    compare: 'the diagonal guess\'s AER on the dates', over: 'the held-out split',
    evidence: { aer: 'alignment-dates.json:diagonal_guess/aer' }, holds: (e) => e.aer >= 0.85,
  },
  {
    id: 'reversal-shifted', claim: 'The lesson\'s reversal model learned at two seeds of three, writes the strings right, yet almost always peaks on a neighbour of the letter.',
    compare: 'exact match against peak on the letter and within one, 30 epochs', over: 'seeds 1 and 3 (the two that learned); seed 2 did not',
    evidence: { ...reversalShiftEvidence, seed2: align('reversal', 'attention', 2, 'exact') }, holds: (e) => reversalShiftHolds(e) && e.seed2 <= 0.01,
  },
  {
    id: 'reversal-not-encoder-alone', claim: 'Among the recurrent designs, neither the one-way encoder nor the lesson\'s way of attending brings the shift alone: Luong\'s attention on the same encoder and Bahdanau\'s model, which attends as the lesson\'s does, both peak on the letter; and the all-states Transformer, right too, also peaks off the letter.',
    compare: 'peak on the letter: the lesson\'s model, Luong\'s global (same one-way encoder), Bahdanau\'s (same attention, two-way encoder), the all-states Transformer (mean of its heads)', over: 'Luong: seeds 1 and 2, which learned (seed 3 did not); Bahdanau and the Transformer: the mean of seeds 1–3',
    evidence: { ...luongReversalEvidence, bahdanauOnLetter: alignMean('reversal', 'bahdanau', 'peak_hit_rate'), luongSeed3: align('reversal', 'luong', 3, 'exact'),
      transformerExact: 'alignment-reversal.json:summary/[model=transformer-all]/exact/mean', transformerOnLetter: alignMean('reversal', 'transformer-all', 'peak_hit_rate'),
      transformerWithinOne: alignMean('reversal', 'transformer-all', 'peak_near_rate') },
    // The Transformer: right (≥ 0.99), on the letter in only ≤ 0.3 of the rows, within one in ≥ 0.85.
    holds: (e) => luongReversalHolds(e) && e.bahdanauOnLetter >= 0.95 && e.luongSeed3 <= 0.3
      && e.transformerExact >= 0.99 && e.transformerOnLetter <= 0.3 && e.transformerWithinOne >= 0.85,
  },
  {
    id: 'same-training-differs', claim: 'The same training is not the same result, and a map is only as good as the model that drew it.',
    compare: 'seeds of one design under one training: Luong\'s global on translation, the lesson\'s model and local-p on the reversal', over: 'every seed',
    evidence: { luongLowest: 'alignment-translation.json:summary/[model=luong]/exact/min', luongHighest: 'alignment-translation.json:summary/[model=luong]/exact/max',
      luongAer: alignMean('translation', 'luong', 'aer'), lessonAer: alignMean('translation', 'attention', 'aer'),
      seed2Exact: align('reversal', 'attention', 2, 'exact'), seed2PerChar: align('reversal', 'attention', 2, 'per_char'), plainPerChar: 'alignment-reversal.json:summary/[model=plain]/per_char/mean',
      seed2Near: align('reversal', 'attention', 2, 'alignment/peak_near_rate'), local: seeds(align('reversal', 'luong-local', '{s}', 'exact')) },
    holds: (e) => e.luongHighest - e.luongLowest >= 0.4 && e.luongAer - e.lessonAer >= 0.2 && e.seed2Exact <= 0.01
      && Math.abs(e.seed2PerChar - e.plainPerChar) <= 0.05 && e.seed2Near <= 0.5 && e.local[0] >= 0.9 && max(e.local.slice(1)) <= 0.01,
  },
  {
    id: 'reversal-length-slope', claim: 'Without attention the reversal\'s letters right fall with the string\'s length; with attention they stay high; the dates show no such slope.',
    compare: 'per-character accuracy in four groups of length, plain (mean of seeds) against the shipped attention model; the dates\' plain model', over: 'plain: the mean of seeds 1–3; attention: seed 1',
    evidence: { plain: each('alignment-reversal.json:summary/[model=plain]/per_group/{i}', [0, 1, 2, 3]), attentionLongest: align('reversal', 'attention', 1, 'per_format/3'), dates: lengthEvidence.ours },
    // Falling at every group, by at least 0.15 overall; attention ≥ 0.95 on the longest; the dates flat (≤ 0.05).
    holds: (e) => e.plain.every((x, i) => i === 0 || x < e.plain[i - 1]) && e.plain[0] - e.plain[3] >= 0.15 && e.attentionLongest >= 0.95 && spread(e.dates) <= 0.05,
  },
  {
    id: 'picture-one-off', claim: 'The reversal shows how a convincing map can sit one position away from the answer while the model is right.',
    compare: 'the shipped reversal model: exact match against peak on the letter', over: 'seeds 1 and 3',
    evidence: reversalShiftEvidence, holds: reversalShiftHolds,
  },
  // ---- Probes ----
  {
    id: 'plain-gradient', claim: 'On the lesson\'s string the shipped plain model\'s last state gets six orders of magnitude more gradient than its first.',
    compare: 'gradient size at the last encoder state over the first, shipped plain model, the lesson\'s string', over: 'one string, seed 1',
    evidence: { ratio: 'gradient_path.json:plain/gradient_path/last_over_first' },
    // Six orders of magnitude: log10 of the ratio between 5.5 and 6.5.
    holds: (e) => Math.log10(e.ratio) >= 5.5 && Math.log10(e.ratio) <= 6.5,
  },
  {
    id: 'attention-gradient', claim: 'With attention the five states that get the most direct gradient are peaks of the map (the day\'s digits, the p, the year\'s 7s); the first and last states get about the same gradient, mostly not directly but back through the few recurrent steps from the day\'s digits, along which it does not shrink.',
    compare: 'gradient sizes of the shipped attention model, the lesson\'s string: direct at every position, total and direct at positions 0, 7 and 8; the map\'s peaks', over: 'one string, seed 1',
    evidence: { ratio: 'gradient_path.json:attention/gradient_path/last_over_first', total0: 'gradient_path.json:attention/gradient_path/total/0',
      direct0: 'gradient_path.json:attention/gradient_path/direct/0', total7: 'gradient_path.json:attention/gradient_path/total/7',
      direct: each('gradient_path.json:attention/gradient_path/direct/{i}', [7, 8]), dayPeaks: each('gradient_path.json:attention/peaks/{i}/position', [8, 9]),
      directAll: each('gradient_path.json:attention/gradient_path/direct/{i}', [...Array(24).keys()]),
      named: each('gradient_path.json:attention/peaks/{i}/position', [8, 9, 5, 2, 3]) },
    // The five largest direct shares are at the peaks the sentence names (the day's digits, the
    // month's p, the year's two 7s), each at least twice the sixth largest.
    holds: (e) => {
      const order = e.directAll.map((x, i) => [x, i]).sort((a, b) => b[0] - a[0]);
      const top = order.slice(0, 5).map(([, i]) => i).sort((a, b) => a - b);
      return JSON.stringify(top) === JSON.stringify([...new Set(e.named)].sort((a, b) => a - b)) && order[4][0] >= 2 * order[5][0]
        && Math.abs(e.ratio - 1) <= 0.1 && e.direct0 <= 0.1 * e.total0 && e.total0 >= e.total7 && e.direct[1] > e.direct[0] && e.dayPeaks[0] === 7 && e.dayPeaks[1] === 8;
    },
  },
  // ---- Every result ----
  {
    id: 'attention-costs', claim: 'At 64 units attention has about half again as many parameters and trains more slowly, in the source and in ours; the decoder cell\'s wider input is more than half of the extra parameters.',
    compare: 'parameters and training time, plain against attention at width 64 (ours single-threaded, the source\'s on hardware it does not state)', over: 'seed 1',
    evidence: { ...costEvidence, width: sweep('attention', 64, 'width') },
    // The wider input: the decoder GRU's three gates each read the H-wide context, 3·H·H weights
    // (core/models/params.h: dec_gru's input is E = 16 + H); more than half of the difference.
    holds: (e) => costHolds(e) && 3 * e.width * e.width > 0.5 * (e.attentionParameters - e.plainParameters)
      && 3 * e.width * e.width < e.attentionParameters - e.plainParameters,
  },
  {
    id: 'ranking-question', claim: 'By per-character accuracy the plain model looks near the attention models; by exact match it sits at the bottom with the plain models and the width-8 ones.',
    compare: 'the plain model at width 64 against attention at 64, and against every plain and width-8 row', over: 'seed 1',
    evidence: { plainPerChar: sweep('plain', 64, 'per_char'), attentionPerChar: sweep('attention', 64, 'per_char'), plainExact: sweep('plain', 64, 'exact'),
      bottom: [sweep('plain', 8, 'exact'), sweep('attention', 8, 'exact'), sweep('plain', 16, 'exact'), sweep('plain', 32, 'exact'), 'sweep.json:source/plain_exact/3'] },
    holds: (e) => e.plainPerChar >= 0.7 && e.attentionPerChar - e.plainPerChar <= 0.3 && e.plainExact <= 0.01 && max(e.bottom) <= 0.01,
  },
  {
    id: 'ranking-answer', claim: 'Exact match tells more: a year-only model scores as much per character as the plain model, and exact match has almost no floor.',
    compare: 'the plain model at width 64 against copying the year and guessing the rest (chance.json)', over: 'seed 1',
    evidence: { ...perCharEvidence, yearOnlyExact: 'chance.json:year_and_dashes_exact' },
    holds: (e) => e.yearOnly >= e.plainPerChar && e.yearOnlyExact <= 0.01 && e.plainExact - e.yearOnlyExact <= 0.005,
  },
  // ---- The published designs ----
  {
    id: 'published-64-vs-16', claim: 'At width 64 every global design is near perfect, so the task cannot tell them apart there; at width 16 it can.',
    compare: 'the means of seeds 1–3 of every global design at widths 64 and 16, 12 epochs; at 16, the seeds of the pairs it separates', over: 'the mean of seeds 1–3; at 16 every seed',
    evidence: { at64: globalDesigns64, at16: globalDesigns64.map((p) => p.replace('width=64', 'width=16')), ...bahdanau16Evidence, ...concatSeparatesEvidence },
    // It can: the means spread by ≥ 0.3, and at least one pair's seeds do not overlap (two do).
    holds: (e) => min(e.at64) >= 0.99 && spread(e.at16) >= 0.3 && bahdanau16Holds(e) && concatSeparatesHolds(e),
  },
  {
    id: 'bahdanau-beats-16', claim: 'At width 16 Bahdanau\'s worst seed beats the lesson model\'s best, but that is not the two-way encoder alone.',
    compare: 'exact match at width 16, 12 epochs; parameter counts', over: 'every seed',
    evidence: { ...bahdanau16Evidence, bahdanauParameters: 'published.json:summary/[model=bahdanau,width=16]/parameters', lessonParameters: 'published.json:summary/[model=attention,width=16]/parameters' },
    holds: (e) => bahdanau16Holds(e) && e.bahdanauParameters > e.lessonParameters,
  },
  {
    id: 'concat-general-overlap', claim: 'Three seeds do not separate Luong\'s concat score from his general one at width 16.',
    compare: 'exact match of seeds 1–3, concat against general, width 16', over: 'every seed',
    evidence: concatGeneralEvidence, holds: concatGeneralHolds,
  },
  {
    id: 'concat-separates-16', claim: 'At width 16 three seeds separate Luong\'s concat score from the lesson\'s model and from dot: concat\'s lowest seed is above the best of either.',
    compare: 'exact match of seeds 1–3 at width 16, 12 epochs: concat against the lesson\'s model and Luong\'s dot', over: 'every seed',
    evidence: concatSeparatesEvidence, holds: concatSeparatesHolds,
  },
  {
    id: 'input-feeding-overlap', claim: 'Nor do three seeds separate input feeding from its absence.',
    compare: 'exact match of seeds 1–3, global general with and without input feeding, widths 16 and 64', over: 'every seed',
    evidence: { with: [luongPub('general', true, 16, 'min'), luongPub('general', true, 16, 'max'), luongPub('general', true, 64, 'min'), luongPub('general', true, 64, 'max')],
      without: [luongPub('general', false, 16, 'min'), luongPub('general', false, 16, 'max'), luongPub('general', false, 64, 'min'), luongPub('general', false, 64, 'max')] },
    // The ranges [min, max] overlap at both widths.
    holds: (e) => [0, 2].every((i) => e.with[i] <= e.without[i + 1] && e.without[i] <= e.with[i + 1]),
  },
  {
    id: 'local-window-separates', claim: 'Without input feeding, the local window is the one difference whose seeds do not overlap at width 64, only just at its best seed and by far at the other two; with input feeding they overlap.',
    compare: 'exact match of seeds 1–3 at width 64: local-p general against global general, with and without input feeding; local-p\'s seed 1 in the map check\'s sweep', over: 'every seed',
    evidence: { localBest: luongPub('general', false, 64, 'max', 'luong-local'), globalWorst: luongPub('general', false, 64, 'min'),
      localOthers: [1, 3].map((s) => `published.json:runs/[model=luong-local,scorer=general,input_feeding=false,width=64,seed=${s}]/exact`),
      localSeed1: 'published.json:runs/[model=luong-local,scorer=general,input_feeding=false,width=64,seed=1]/exact', localSeed1MapCheck: align('dates', 'luong-local', 1, 'exact'),
      feedingLocalBest: luongPub('general', true, 64, 'max', 'luong-local'), feedingGlobalWorst: luongPub('general', true, 64, 'min') },
    // Only just: below, by less than seed 1 moved between machines; far below: ≥ 0.2 under the global worst.
    holds: (e) => e.localBest < e.globalWorst && e.globalWorst - e.localBest < Math.abs(e.localSeed1 - e.localSeed1MapCheck)
      && max(e.localOthers) <= e.globalWorst - 0.2 && e.feedingLocalBest >= e.feedingGlobalWorst,
  },
  {
    id: 'local-map-not-window', claim: 'The local-p maps do not explain the window\'s harm: its best seed peaks on a link less often than a worse seed.',
    compare: 'local-p\'s seeds on the dates, map check (12 epochs): exact match against peak on a link', over: 'every seed',
    evidence: { mean: alignMean('dates', 'luong-local', 'peak_hit_rate'), exact: seeds(align('dates', 'luong-local', '{s}', 'exact')), onLink: seeds(align('dates', 'luong-local', '{s}', 'alignment/peak_hit_rate')) },
    // Seed 2 is the best writer (≥ 0.99) yet peaks on a link less often than seed 1, which writes worse.
    holds: (e) => e.mean <= 0.3 && e.exact[1] >= 0.99 && e.exact[0] < e.exact[1] && e.onLink[1] < e.onLink[0],
  },
  {
    id: 'alignment-caveat', claim: 'A soft alignment that can be looked at can still sit one position off while the model is right.',
    compare: 'the shipped reversal model: exact match against peak on the letter', over: 'seeds 1 and 3',
    evidence: reversalShiftEvidence, holds: reversalShiftHolds,
  },
  // ---- The Transformer ----
  {
    id: 'gru-comparison-confounded', claim: 'The plain and attention GRU models differ in more than attention: the attention model has more parameters.',
    compare: 'parameter counts at width 64', over: 'the models\' shapes',
    evidence: { plain: sweep('plain', 64, 'parameters'), attention: sweep('attention', 64, 'parameters'),
      first: tf('transformer-first', 1, 'parameters'), all: tf('transformer-all', 1, 'parameters') },
    // …while the Transformer pair has exactly the same weights.
    holds: (e) => e.attention > e.plain && e.first === e.all,
  },
  {
    id: 'warmup', claim: 'Warm-up made no measurable difference at this size: the five settings, one seed each, ended closer together than one run swings from epoch to epoch.',
    compare: 'the five candidate settings of the all-states Transformer, seed 1; the shipped run\'s dip at epoch 7 and the warm-up run at epoch 11', over: 'seed 1 (one seed per setting)',
    evidence: { warmup: 'transformer.json:shipped/candidates/[epochs=12,warmup_steps=200]/exact', all: each('transformer.json:shipped/candidates/{i}/exact', [0, 1, 2, 3, 4]),
      warmupBefore: 'transformer.json:shipped/candidates/[epochs=12,warmup_steps=200]/curve/[epoch=11]/exact',
      shippedBeforeDip: 'transformer.json:shipped/models/transformer-all/curve/[epoch=6]/exact', shippedDip: 'transformer.json:shipped/models/transformer-all/curve/[epoch=7]/exact' },
    // The five span less than the shipped run's one-epoch dip; the warm-up run, last at the end,
    // was level with the best (within 0.001) one epoch before.
    holds: (e) => spread(e.all) <= 0.02 && spread(e.all) < e.shippedBeforeDip - e.shippedDip && e.warmup === min(e.all) && e.warmupBefore >= max(e.all) - 0.001,
  },
  {
    id: 'shipped-settings', claim: 'The shipped settings came out best of five, level with the setting of 20 epochs, which is the same run continued and took about twice as long; the five span a narrow range, which bounds the tuning\'s optimism.',
    compare: 'the five candidate settings, seed 1: exact match, held-out curves and training time', over: 'seed 1',
    evidence: { shipped: 'transformer.json:shipped/candidates/[epochs=12,warmup_steps=0,dropout=0]/exact', other: 'transformer.json:shipped/candidates/[epochs=20,warmup_steps=0,dropout=0]/exact',
      shippedSeconds: 'transformer.json:shipped/candidates/[epochs=12,warmup_steps=0,dropout=0]/train_seconds', otherSeconds: 'transformer.json:shipped/candidates/[epochs=20,warmup_steps=0,dropout=0]/train_seconds',
      shippedCurve: each('transformer.json:shipped/candidates/[epochs=12,warmup_steps=0,dropout=0]/curve/{i}/exact', [...Array(12).keys()]),
      otherCurve: each('transformer.json:shipped/candidates/[epochs=20,warmup_steps=0,dropout=0]/curve/{i}/exact', [...Array(12).keys()]),
      all: each('transformer.json:shipped/candidates/{i}/exact', [0, 1, 2, 3, 4]) },
    // The same run continued: its first 12 epochs' held-out scores are identical to the shipped run's.
    holds: (e) => e.shipped === max(e.all) && e.other === e.shipped && all([...Array(12).keys()], (i) => e.shippedCurve[i] === e.otherCurve[i])
      && e.shippedSeconds / e.otherSeconds >= 0.4 && e.shippedSeconds / e.otherSeconds <= 0.6 && spread(e.all) <= 0.02,
  },
  {
    id: 'first-against-all', claim: 'Reading every state beats reading one, by far, at every seed, as the course note found.',
    compare: 'transformer-first against transformer-all, width 64, 12 epochs; the course note\'s BLEU', over: 'every seed',
    evidence: { ...firstAllEvidence, noteAll: 'transformer.json:source/bleu/transformer-all', noteFirst: 'transformer.json:source/bleu/transformer-first' },
    holds: (e) => firstAllHolds(e) && e.noteAll > e.noteFirst,
  },
  {
    id: 'first-state-spread', claim: 'What the single vector loses is spread across the fields: its worst three digits are about equal and all far above chance.',
    compare: 'per-position accuracy of transformer-first against chance', over: 'the mean of seeds 1–3 (seed 2 for its worst digit)',
    evidence: { worst: each(tfSummary('transformer-first', 'per_position/{i}/mean'), [2, 3, 9]), others: each(tfSummary('transformer-first', 'per_position/{i}/mean'), [0, 1, 4, 5, 6, 7, 8]),
      seed2: each(tf('transformer-first', 2, 'per_position/{i}'), [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]), chance: [2, 3, 9].map(chance) },
    // About equally: within 0.03; the three lowest; far above chance: ≥ 0.5 more.
    holds: (e) => spread(e.worst) <= 0.03 && max(e.worst) < min(e.others) && e.seed2[9] === min(e.seed2) && all([0, 1, 2], (i) => e.worst[i] - e.chance[i] >= 0.5),
  },
  {
    id: 'first-state-not-recency', claim: 'The first-state model does not keep the field read last as the GRU without attention does.',
    compare: 'the year\'s last two digits: transformer-first against the plain GRU, width 64', over: 'the mean of seeds 1–3',
    evidence: { first: each(tfSummary('transformer-first', 'per_position/{i}/mean'), [2, 3]), firstOthers: each(tfSummary('transformer-first', 'per_position/{i}/mean'), [0, 1, 4, 5, 6, 7, 8]),
      plain: each(tfSummary('plain', 'per_position/{i}/mean'), [2, 3]) },
    holds: (e) => max(e.first) < min(e.firstOthers) && min(e.plain) >= 0.99,
  },
  {
    id: 'noise', claim: 'On another machine the plain GRU trained to the same losses and the attention GRUs to slightly different ones with the same held-out scores, seed for seed; the Transformers moved by noise much smaller than their gap.',
    compare: 'the map check\'s runs against published.json and transformer.json, same settings and seeds, width 64', over: 'every seed',
    evidence: {
      mapCheck: [1, 2, 3].flatMap((s) => ['plain', 'attention', 'bahdanau', 'luong'].map((m) => align('dates', m, s, 'exact'))),
      original: [1, 2, 3].flatMap((s) => [tf('plain', s, 'exact'), `published.json:runs/[model=attention,width=64,seed=${s}]/exact`,
        `published.json:runs/[model=bahdanau,width=64,seed=${s}]/exact`, `published.json:runs/[model=luong,scorer=general,input_feeding=false,width=64,seed=${s}]/exact`]),
      firstMapCheck: 'alignment-dates.json:summary/[model=transformer-first]/exact/mean', firstOriginal: tfSummary('transformer-first', 'exact/mean'),
      allMapCheck: 'alignment-dates.json:summary/[model=transformer-all]/exact/mean',
      plainLossMapCheck: [1, 2, 3].flatMap((s) => epochs.map((k) => align('dates', 'plain', s, `epoch_train_loss/${k}`))),
      plainLossOriginal: [1, 2, 3].flatMap((s) => epochs.map((k) => tf('plain', s, `epoch_train_loss/${k}`))),
      lastLossMapCheck: [1, 2, 3].flatMap((s) => ['attention', 'bahdanau', 'luong'].map((m) => align('dates', m, s, 'epoch_train_loss/11'))),
      lastLossOriginal: [1, 2, 3].flatMap((s) => [`published.json:runs/[model=attention,width=64,seed=${s}]/epoch_train_loss/11`,
        `published.json:runs/[model=bahdanau,width=64,seed=${s}]/epoch_train_loss/11`, `published.json:runs/[model=luong,scorer=general,input_feeding=false,width=64,seed=${s}]/epoch_train_loss/11`]) },
    // 'The same losses, digit for digit' for the plain model; 'slightly different' for the attention
    // models: every last loss differs, by less than a fifth of itself; 'almost every string right':
    // each attention model's exact match at least 0.99 (mapCheck holds plain, then the three, per seed).
    holds: (e) => e.mapCheck.every((x, i) => x === e.original[i]) && Math.abs(e.firstMapCheck - e.firstOriginal) <= 0.05 && e.allMapCheck - e.firstMapCheck >= 0.3 &&
      e.plainLossMapCheck.every((l, i) => l === e.plainLossOriginal[i]) && e.mapCheck.every((x, i) => i % 4 === 0 || x >= 0.99) &&
      e.lastLossMapCheck.every((l, i) => l !== e.lastLossOriginal[i] && Math.abs(l - e.lastLossOriginal[i]) < 0.2 * e.lastLossOriginal[i]),
  },
  {
    id: 'first-against-plain', claim: 'The first-state Transformer beats the GRU without attention by far, in the course note\'s direction; but the comparison is confounded.',
    compare: 'transformer-first against plain GRU, width 64, 12 epochs, seeds 1–3; the course note\'s BLEU', over: 'every seed',
    evidence: { firstLowest: tfSummary('transformer-first', 'exact/min'), plainHighest: tfSummary('plain', 'exact/max'),
      noteFirst: 'transformer.json:source/bleu/transformer-first', noteLstm: 'transformer.json:source/bleu/lstm-without-attention',
      firstParameters: tf('transformer-first', 1, 'parameters'), plainParameters: tf('plain', 1, 'parameters') },
    // By far: ≥ 0.5 between the ranges; the course note: the same direction, a gap under 0.1 BLEU.
    holds: (e) => e.firstLowest - e.plainHighest >= 0.5 && e.noteFirst > e.noteLstm && e.noteFirst - e.noteLstm < 0.1 && e.firstParameters > e.plainParameters,
  },
  {
    id: 'bottleneck-after-12', claim: 'After the same 12 epochs the bottleneck is there at every seed, while the first-state model was still improving.',
    compare: 'transformer-first against transformer-all at 12 epochs; the first-state curve at epochs 9 and 12', over: 'every seed; the curve: seed 1',
    evidence: { ...firstAllEvidence, ...stillRisingEvidence }, holds: (e) => firstAllHolds(e) && stillRisingHolds(e),
  },
  {
    id: 'translation-order', claim: 'On our grammar the order is the course note\'s, but the first state loses much less.',
    compare: 'BLEU after 30 epochs, three seeds: all states, first state, GRU without attention; the course note\'s Multi30k BLEU', over: 'the mean of seeds 1–3',
    evidence: { all: 'alignment-translation.json:summary/[model=transformer-all]/bleu/mean', first: 'alignment-translation.json:summary/[model=transformer-first]/bleu/mean',
      plain: 'alignment-translation.json:summary/[model=plain]/bleu/mean', noteAll: 'transformer.json:source/bleu/transformer-all', noteFirst: 'transformer.json:source/bleu/transformer-first',
      noteLstm: 'transformer.json:source/bleu/lstm-without-attention' },
    holds: (e) => e.all > e.first && e.first > e.plain && e.noteAll > e.noteFirst && e.noteFirst > e.noteLstm && (e.all - e.first) * 3 <= e.noteAll - e.noteFirst,
  },
  {
    id: 'first-still-rising', claim: 'The first-state date model was still improving at epoch 12.',
    compare: 'the shipped first-state model\'s held-out curve', over: 'seed 1',
    evidence: stillRisingEvidence, holds: stillRisingHolds,
  },
  {
    id: 'translation-longest', claim: 'What the single state loses on the grammar, it loses in the longest sentences.',
    compare: 'per-word accuracy by sentence pattern, transformer-first', over: 'the mean of seeds 1–3',
    evidence: { groups: each('alignment-translation.json:summary/[model=transformer-first]/per_group/{i}', [0, 1, 2, 3]) },
    holds: (e) => e.groups[3] === min(e.groups) && e.groups[0] - e.groups[3] >= 0.03,
  },
  {
    id: 'translation-maps', claim: 'The first-state map puts all its weight on one state; the all-states map (a mean of four heads, not like for like) is the best of any model on the grammar.',
    compare: 'AER on the translation, every model with a map', over: 'the mean of seeds 1–3',
    evidence: { first: alignMean('translation', 'transformer-first', 'aer'), all: alignMean('translation', 'transformer-all', 'aer'),
      others: ['attention', 'bahdanau', 'luong', 'luong-local'].map((m) => alignMean('translation', m, 'aer')) },
    holds: (e) => e.first >= 0.8 && e.all < min(e.others),
  },
  {
    id: 'reversal-first', claim: 'On the reversal the first state fails: little more than the GRU without attention.',
    compare: 'exact match after 30 epochs: transformer-all, transformer-first, plain GRU', over: 'the mean of seeds 1–3',
    evidence: { all: 'alignment-reversal.json:summary/[model=transformer-all]/exact/mean', first: 'alignment-reversal.json:summary/[model=transformer-first]/exact/mean',
      plain: 'alignment-reversal.json:summary/[model=plain]/exact/mean' },
    holds: (e) => e.all >= 0.99 && e.first <= 0.05 && e.first - e.plain <= 0.05,
  },
  {
    id: 'one-vector-not-data-alone', claim: 'One vector serving the grammar is not a property of the data alone: the first-state Transformer manages it and the GRU without attention does not; the two differ in more than their vector.',
    compare: 'BLEU after 30 epochs: transformer-first against the plain GRU; their parameter counts', over: 'the mean of seeds 1–3',
    evidence: { first: 'alignment-translation.json:summary/[model=transformer-first]/bleu/mean', plain: 'alignment-translation.json:summary/[model=plain]/bleu/mean',
      firstParameters: 'alignment-translation.json:summary/[model=transformer-first]/parameters', plainParameters: 'alignment-translation.json:summary/[model=plain]/parameters' },
    holds: (e) => e.first >= 0.95 && e.plain <= 0.2 && e.firstParameters > e.plainParameters,
  },
  {
    id: 'gru-matches-transformer', claim: 'The GRU with attention learns the dates as well as the all-states Transformer, with fewer parameters.',
    compare: 'exact match at width 64, 12 epochs, seeds 1–3; parameters', over: 'every seed',
    evidence: { gru: seeds(tf('attention', '{s}', 'exact')), transformer: seeds(tf('transformer-all', '{s}', 'exact')),
      gruParameters: tf('attention', 1, 'parameters'), transformerParameters: tf('transformer-all', 1, 'parameters') },
    holds: (e) => min(e.gru) >= 0.99 && min(e.transformer) >= 0.99 && e.gruParameters < e.transformerParameters,
  },
  {
    id: 'heads-share', claim: 'Moving every head changes most characters; moving one head alone changes few.',
    compare: 'wrong-field moves of the all-states Transformer: all heads against each head alone', over: 'seed 1 (shipped)',
    evidence: { everyHead: cf(TF, 'all', 'wrong_field', 'changed_rate'), oneHead: [0, 1, 2, 3].map((h) => cf(TF, h, 'wrong_field', 'changed_rate')) },
    holds: (e) => e.everyHead >= 0.8 && max(e.oneHead) <= 0.3,
  },
  // ---- Pitfalls ----
  {
    id: 'pitfall-recurrence', claim: 'The GRU with attention beats the one without even at about a fifth of the parameters; the Transformer pair, which differs in nothing else, isolates reading every state, and it wins at every seed.',
    compare: 'the lesson\'s GRU with attention at width 16 (seeds 1–3) against the plain GRU at width 64 (seeds 1–3), and at width 64 against width 64; transformer-first against transformer-all', over: 'every seed',
    evidence: { attention: seeds(tf('attention', '{s}', 'exact')), plain: seeds(tf('plain', '{s}', 'exact')),
      attention16Worst: pub('attention', 16, 'min'), plainBest: tfSummary('plain', 'exact/max'),
      attention16Parameters: 'published.json:summary/[model=attention,width=16]/parameters', plainParameters: tf('plain', 1, 'parameters'), ...firstAllEvidence },
    // Beats: the width-16 attention model's worst seed is ≥ 0.5 above the plain model's best;
    // about a fifth: 0.15–0.25 of the parameters; the Transformer pair as in first-against-all.
    holds: (e) => min(e.attention) - max(e.plain) >= 0.9 && e.attention16Worst - e.plainBest >= 0.5
      && e.attention16Parameters / e.plainParameters >= 0.15 && e.attention16Parameters / e.plainParameters <= 0.25 && firstAllHolds(e),
  },
  {
    id: 'pitfall-exact-match', claim: 'A model can score almost nothing on exact match while getting most characters right, and a year-only model scores as much per character.',
    compare: 'the plain model at width 64 against the year-only guess (chance.json)', over: 'seed 1',
    evidence: perCharEvidence, holds: (e) => e.plainExact <= 0.01 && e.plainPerChar >= 0.7 && e.yearOnly >= e.plainPerChar,
  },
  {
    id: 'pitfall-length', claim: 'On these dates the plain model\'s errors follow the field, not the input\'s length.',
    compare: 'per-position accuracy and length groups of the plain model at width 64, ours and the source\'s', over: 'seed 1',
    evidence: { ...lengthEvidence, year: each(sweep('plain', 64, 'per_position/{i}'), [0, 1, 2, 3]), day: each(sweep('plain', 64, 'per_position/{i}'), [8, 9]), dayChance: [chance(8), chance(9)] },
    holds: (e) => lengthHolds(e) && min(e.year) >= 0.99 && all([0, 1], (i) => e.day[i] <= e.dayChance[i] + 0.005),
  },
  {
    id: 'pitfall-map', claim: 'An alignment map is evidence only when the right alignment is known: a right model\'s peaks can sit off the answer.',
    compare: 'the shipped reversal model: exact match against peak on the letter', over: 'seeds 1 and 3',
    evidence: reversalShiftEvidence, holds: reversalShiftHolds,
  },
  {
    id: 'pitfall-cost', claim: 'Attention adds parameters and made training slower, in the source and in ours.',
    compare: 'plain against attention at width 64: parameters and training time', over: 'seed 1',
    evidence: costEvidence, holds: costHolds,
  },
  {
    id: 'pitfall-one-width', claim: 'Had width 8 been the only width tried, attention would have looked useless.',
    compare: 'exact match at width 8 and 64, the source\'s run and ours', over: 'seed 1',
    evidence: shapeEvidence, holds: shapeHolds,
  },
  // ---- What to remember ----
  {
    id: 'remember-plain', claim: 'The plain model keeps the year read last and gets the day right at most about one time in six wherever it is read; not a matter of length.',
    compare: 'the field-order dial (mean of seeds) and the length groups (seed 1)', over: 'the mean of seeds 1–3; length: seed 1',
    evidence: { ...recencyEvidence, ...lengthEvidence }, holds: (e) => recencyHolds(e) && lengthHolds(e),
  },
  {
    id: 'remember-attention', claim: 'On our dates attention takes exact match from almost nothing to everything at 64 units, once wide enough, and costs parameters.',
    compare: 'plain against attention at widths 8 and 64', over: 'seed 1',
    evidence: { ...shapeEvidence, ...costEvidence }, holds: (e) => shapeHolds(e) && costHolds(e),
  },
  {
    id: 'remember-published', claim: 'Bahdanau\'s design beats the lesson\'s at width 16 at every seed; three seeds do not separate concat from general; at 64 every global design is near perfect.',
    compare: 'published.json, 12 epochs, seeds 1–3', over: 'every seed',
    evidence: { ...bahdanau16Evidence, ...concatGeneralEvidence, at64: globalDesigns64 },
    holds: (e) => bahdanau16Holds(e) && concatGeneralHolds(e) && min(e.at64) >= 0.99,
  },
  {
    id: 'remember-maps', claim: 'A map shows what was mixed, not why: a right model can peak off the answer; before blaming the encoder for a shifted map, try another attention on the same encoder.',
    compare: 'the reversal: the lesson\'s model (exact match against peak on the letter) and Luong\'s global on the same one-way encoder', over: 'the lesson\'s seeds 1 and 3; Luong: seeds 1 and 2, which learned',
    evidence: { ...reversalShiftEvidence, ...luongReversalEvidence }, holds: (e) => reversalShiftHolds(e) && luongReversalHolds(e),
  },
  {
    id: 'remember-transformer', claim: 'Inside one Transformer the bottleneck is still there after 12 epochs at every seed.',
    compare: 'transformer-first against transformer-all, width 64, 12 epochs', over: 'every seed',
    evidence: { ...firstAllEvidence, ...stillRisingEvidence }, holds: (e) => firstAllHolds(e) && stillRisingHolds(e),
  },
  // ---- Self-check ----
  {
    id: 'q5-premise', claim: 'The plain model writes the year almost perfectly and the day\'s digits no better than chance.',
    compare: 'per-position accuracy at width 64 against always writing the most common digit', over: 'seed 1',
    evidence: { year: each(sweep('plain', 64, 'per_position/{i}'), [0, 1, 2, 3]), day: each(sweep('plain', 64, 'per_position/{i}'), [8, 9]), dayChance: [chance(8), chance(9)] },
    holds: (e) => min(e.year) >= 0.99 && all([0, 1], (i) => e.day[i] <= e.dayChance[i] + 0.005),
  },
  {
    id: 'q5-answer', claim: 'Recency explains the year, not the day: the day is right at most about one time in six wherever it is read, and the seeds of its places overlap; the same model gets all four year digits right, so neither days\' values nor width explain it.',
    compare: 'the field-order dial, plain model, and its year digits at width 64', over: 'the mean of seeds 1–3 (the overlap: every seed)',
    evidence: { ...recencyEvidence, ...dayOverlapEvidence, yearDigits: each(sweep('plain', 64, 'per_position/{i}'), [0, 1, 2, 3]) },
    holds: (e) => recencyHolds(e) && dayOverlapHolds(e) && min(e.yearDigits) >= 0.99,
  },
  {
    id: 'q6-answer', claim: 'There is no trend with length; the failure tracks the field.',
    compare: 'length groups and field accuracy of the plain model at width 64', over: 'seed 1',
    evidence: { ...lengthEvidence, year: each(sweep('plain', 64, 'per_position/{i}'), [0, 1, 2, 3]), day: each(sweep('plain', 64, 'per_position/{i}'), [8, 9]), dayChance: [chance(8), chance(9)] },
    holds: (e) => lengthHolds(e) && min(e.year) >= 0.99 && all([0, 1], (i) => e.day[i] <= e.dayChance[i] + 0.005),
  },
  {
    id: 'q8-answer', claim: 'The first dash\'s peak lands on the day\'s first digit: not by itself an error.',
    compare: 'the first dash\'s peak and the day\'s first digit\'s peak, one string', over: 'one string, seed 1',
    evidence: { dashPosition: 'gradient_path.json:attention/peaks/4/position', dashWeight: 'gradient_path.json:attention/peaks/4/weight',
      dayPosition: 'gradient_path.json:attention/peaks/8/position', dashRight: sweep('attention', 64, 'per_position/4') },
    holds: (e) => e.dashPosition === e.dayPosition && e.dashWeight > 0.5 && e.dashRight >= 0.999,
  },
  {
    id: 'q10-premise', claim: 'At 8 units both models fail on exact match, attention as much as plain.',
    compare: 'exact match at width 8', over: 'seed 1',
    evidence: { both: [sweep('plain', 8, 'exact'), sweep('attention', 8, 'exact')] }, holds: (e) => max(e.both) <= 0.01,
  },
  {
    id: 'q10-answer', claim: 'At 8 units access is not enough in 12 epochs: both models miss even the year\'s third digit; whether width or training time, not run; training matters there (the source\'s plain model, trained differently, gets far fewer characters right); at 16 attention works.',
    compare: 'the year\'s third digit at width 8, plain against attention; parameters; plain per-character accuracy at width 8, ours against the source\'s; attention at 16', over: 'seed 1',
    evidence: { third: [sweep('plain', 8, 'per_position/2'), sweep('attention', 8, 'per_position/2')], plainParameters: sweep('plain', 8, 'parameters'),
      attentionParameters: sweep('attention', 8, 'parameters'), attention16: sweep('attention', 16, 'exact'),
      oursPerChar: sweep('plain', 8, 'per_char'), sourcePerChar: 'sweep.json:source/plain_per_char/0' },
    holds: (e) => max(e.third) <= 0.5 && Math.abs(e.third[0] - e.third[1]) <= 0.05 && e.attentionParameters > e.plainParameters && e.attention16 >= 0.5
      && e.oursPerChar - e.sourcePerChar >= 0.3,
  },
];

// Sentences with a causal or comparative word that are not claims, each kind with its reason.
// `within` names elements (an opening-tag pattern; the element runs to its matching end tag):
// every sentence inside is excused. `sentence` is a pattern a sentence's text must match.
// A data-claim inside an excused element is still checked.
export const EXCEPTIONS = [
  { within: /<section id="mechanism"/, reason: 'the computation defined and worked by hand (the four steps, the conventions, the worked example mechanism.test.mjs recomputes, the made-up sentence map)' },
  { within: /<section id="scorers"/, reason: 'the scoring functions and the temperature defined, and the variance argument for 1/√d (mechanism.test.mjs recomputes the numbers)' },
  { within: /<section id="transformer"/, reason: 'the Transformer\'s parts described and defined (the comparison table and the glossary)' },
  { within: /<section id="gains-and-limits"/, reason: 'what the design allows by construction (reach, a weighted sum, recurrence, cost in score evaluations); its one measured caveat is a claim' },
  { within: /<figure class="figure" id="bottleneck-figure"/, reason: 'Figure 1 draws the two designs, not a result' },
  { within: /<p id="published-prose"/, reason: 'the published designs as the core implements them (core/models/bahdanau.h, luong.h)' },
  { within: /<p id="first-state-prose"/, reason: 'what the first-state memory is computed from, by construction (core/models/transformer.h); what it keeps is measured in the claims below it' },
  { within: /<section id="next"/, reason: 'what the next lesson covers' },
  { within: /<label>/, reason: 'a concept question\'s options: the wrong ones are meant to be wrong, and the key is restated in the explanation' },
  { within: /<form class="concept" id="q-(?:problem|weight|luong|recurrence|additive|query|next|keys-values|dot-qk)"/, reason: 'concept questions on definitions: the answer follows from the formulas of the mechanism section' },
  { sentence: /\?\s*$/, reason: 'a question asserts nothing' },
  { sentence: /we have not (?:tested|measured|run|checked)|untested|our guess|we guess|not something they test|these (?:runs|counts|maps) do not (?:say|separate|tell)|which the page does not measure/, reason: 'worded as a guess or an open question, visibly' },
  { sentence: /\bmeans of (?:three|the|seeds)\b|ranks their means|a dash means|“As published” means|costs it only a tenth of its characters|the line across each group of the positions is chance|looks only at input position/, reason: 'a definition (of a score, of chance, of the diagonal guess), or "means" as the plural of mean' },
  { sentence: /Nine months of the twelve start with a 0|Always writing the most common digit scores/, reason: 'the chance baseline, computed from the split (chance.json, lookback chance)' },
  { sentence: /where it shows one|the task menu shows|the address bar keeps what you set|so you can keep scrolling|so a link reproduces the run|so you can see how much|tints the numbers it computes and, more lightly|(?:lower|higher) is better|so nothing is outlined|Two more questions|A task needs a hundred pairs or more|the limits on its size|if you would rather not wait|the page's own address holds them too|brighter for more weight|the input position with the most weight|first encoder state only \(grey\)/i, reason: 'the page\'s controls and what they do' },
  { sentence: /the answer depends on every part|so the model has to reorder|so nothing is downloaded|so our generator writes|cannot separate is a field's place|outputs are always ten characters|a possible link is a token it also depends on|Each of the three tasks the core knows/, reason: 'how the tasks are made (core/data, docs/dataset.md, docs/tasks.md)' },
  { sentence: /left to right only|the only state that has read the whole string|so the shorter ones are padded|so no weight ever lands on padding|so one mistake does not spoil|its most likely character|so its state at position|every query has a single key|so the order of its sums depends|first-state model has nowhere else|because one key always gets weight 1|the other three still read the right field|a weighted sum ignores order|so a peak on a space or in the middle of a word may be/, reason: 'what the models compute, by construction (core/models/*.h, core/train)' },
  { sentence: /So we trained both models|only when all its digits are|busy with other builds, so the table|The GRU models were not tuned|tuning on the test set|only for its models at width 64|and the dates only 12 epochs|so that row is where the model looks|so we ran ours on the toy grammar/, reason: 'how a measurement was made' },
  { sentence: /Jain and Wallace \(2019\) showed|Cho\s+et al\., 2014|course note saw a near-diagonal map|did that with a one-layer Transformer|Its notebook states|the papers before the Transformer/, reason: 'what a cited paper or the course note reports (not our measurement)' },
  { sentence: /where the rows lean they lean across fields/, reason: 'what Figure 9\'s self-attention map draws for the lesson\'s date (the weekday\'s letters peak in the day, most of the month word\'s in the year), which transformer.test.mjs checks in the page' },
  { sentence: /a map that labels each row by the decoder's input|Our rows are labelled by the character they write/, reason: 'the labelling argument behind our guess about the course note\'s map (the sentence before says it is a guess)' },
  { sentence: /The article around the figures, which explains why, takes over an hour/, reason: 'the route\'s own time, which the route test below checks' },
  { sentence: /so that wider\s+vectors do not push/, reason: 'the reason for 1/√d, derived in the scorers section' },
];

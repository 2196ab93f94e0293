// tests/browser/scripts.test.mjs — a reader's transliteration task in each script the site ships a
// font for (docs/own-pairs.md, "Glyphs"), in headless Chromium on one page: Latin letters to
// that script's letters, 155 pairs made here, pasted and used. Each task fetches its script's one
// font (none once that font is loaded), and after a frame the figures' atlas has a glyph for every
// character of the task: none is drawn as □. The status says once that right-to-left text is drawn
// in stored order and that characters are drawn unshaped. A Devanagari and an Arabic task are
// trained for an epoch and their map check (Figure 5b) drawn: a vowel sign or haraka alone as an
// output token is labelled on a dotted circle (U+25CC), while the state keeps the token itself.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clickWidget, openWatched, rect, screenshotPath, state, until, useBrowser } from './helpers.mjs';

const env = useBrowser();

const dejavu = 'fonts/DejaVuSans.ttf';
// Five syllables of each script, most a consonant with a vowel sign, virama, haraka or niqqud
// (each a combining mark, a token of its own in a character task); `font` the one the site
// fetches for them, `rtl` written right to left.
const scripts = [
  { name: 'Latin with diacritics', pieces: ['ā', 'ś', 'ṣ', 'ṭ', 'ñ'], font: dejavu },
  { name: 'Greek', pieces: ['ἀ', 'ῶ', 'ή', 'λ', 'ξ'], font: dejavu },
  { name: 'Cyrillic', pieces: ['б', 'ж', 'щ', 'ю', 'я'], font: dejavu },
  { name: 'Hebrew', pieces: ['שִ', 'לָ', 'ם', 'ב', 'ת'], font: dejavu, rtl: true },
  { name: 'Arabic', pieces: ['بَ', 'تِ', 'كُ', 'سْ', 'ل'], font: dejavu, rtl: true, map: true },
  { name: 'Urdu', pieces: ['ٹ', 'ڈ', 'ہ', 'ے', 'ں'], font: 'fonts/Lateef-Regular.ttf', rtl: true },
  { name: 'Devanagari', pieces: ['कि', 'गा', 'मु', 'ने', 'त्'], font: 'fonts/Lohit-Devanagari.ttf', map: true },
  { name: 'Bengali', pieces: ['কি', 'গা', 'মু', 'নে', 'ত্'], font: 'fonts/Lohit-Bengali.ttf' },
  { name: 'Gurmukhi', pieces: ['ਕਿ', 'ਗਾ', 'ਮੁ', 'ਨੇ', 'ਤ੍'], font: 'fonts/Lohit-Gurmukhi.ttf' },
  { name: 'Gujarati', pieces: ['કિ', 'ગા', 'મુ', 'ને', 'ત્'], font: 'fonts/Lohit-Gujarati.ttf' },
  { name: 'Tamil', pieces: ['கி', 'கா', 'மு', 'நெ', 'த்'], font: 'fonts/Lohit-Tamil.ttf' },
  { name: 'Telugu', pieces: ['కి', 'గా', 'ము', 'నే', 'త్'], font: 'fonts/Lohit-Telugu.ttf' },
  { name: 'Kannada', pieces: ['ಕಿ', 'ಗಾ', 'ಮು', 'ನೇ', 'ತ್'], font: 'fonts/Lohit-Kannada.ttf' },
  { name: 'Malayalam', pieces: ['കി', 'ഗാ', 'മു', 'നേ', 'ത്'], font: 'fonts/Lohit-Malayalam.ttf' },
  { name: 'Sinhala', pieces: ['කි', 'ගා', 'මු', 'නේ', 'ත්'], font: 'fonts/lklug.ttf' },
  { name: 'Thai', pieces: ['กิ', 'คา', 'มุ', 'น่', 'ต'], font: 'fonts/Loma.ttf' },
];
const keys = ['k', 'g', 'm', 'n', 't'];
const isMark = (c) => /\p{M}/u.test(c);
const rtlNote = 'Right-to-left text is drawn in the order it is stored, left to right';
const unshapedNote = 'each character is drawn by itself';

// Every string of one to three keys, each to its pieces: 5 + 25 + 125 = 155 pairs.
function pairsText(pieces) {
  let strings = [[]];
  const lines = [];
  for (let length = 1; length <= 3; length++) {
    strings = strings.flatMap((s) => keys.map((_, k) => [...s, k]));
    for (const s of strings) lines.push(`${s.map((k) => keys[k]).join('')}\t${s.map((k) => pieces[k]).join('')}`);
  }
  return lines.join('\n') + '\n';
}

const status = (page) => page.textContent('#own-pairs-status');
async function useText(page, text) {
  await page.evaluate((t) => { document.getElementById('own-pairs-text').value = t; }, text);
  await page.focus('#own-pairs-use');
  await page.keyboard.press('Space');
}

// Trains the task for an epoch and checks the map's labels: each row's token as drawn, a lone
// mark on U+25CC, every glyph in the atlas.
async function mapLabels(page, script) {
  await page.locator('canvas[data-figure="training"]').scrollIntoViewIfNeeded();
  await until('the training figure', async () => (await rect(page, 'training', 'train')) !== null, 20000);
  await clickWidget(page, 'training', 'train');
  await until(`the ${script.name} task trained`, async () => (await state(page, 'training')).runs.every((r) => r.done), 180000);
  await page.locator('canvas[data-figure="checked"]').scrollIntoViewIfNeeded();
  await until(`the ${script.name} map`, async () => (await state(page, 'checked')).weights.length > 0, 30000);
  // A held-out pair of three syllables, for more labels to check and to look at.
  for (let step = 0; step < 15 && (await state(page, 'checked')).columns.length < 3; step++) {
    const shown = (await state(page, 'checked')).example;
    await until('the next button', async () => (await rect(page, 'checked', 'next')) !== null, 10000);
    await clickWidget(page, 'checked', 'next');
    await until('the next example', async () => (await state(page, 'checked')).example !== shown, 10000);
  }
  const map = await state(page, 'checked');
  assert.equal(map.columns.length, 3);
  const letters = new Set(script.pieces.flatMap((p) => [...p]));
  assert.ok(map.rows.every((t) => letters.has(t)), `the rows are the task's own tokens: ${map.rows.join(' ')}`);
  assert.ok(map.rows.some(isMark), `the held-out target has a mark: ${map.rows.join(' ')}`);
  assert.deepEqual(map.row_labels, map.rows.map((t) => (isMark(t) ? `\u25CC${t}` : t)));
  assert.deepEqual(map.column_labels, map.columns, 'Latin columns are drawn as they are');
  assert.deepEqual(await page.evaluate((t) => window.lookback.fontReport(t).missing, map.row_labels.join('')), []);
  await page.locator('canvas[data-figure="checked"]').screenshot({ path: screenshotPath(`scripts-${script.name.toLowerCase()}-checked.png`) });
}

test('scripts: each script\'s task fetches its one font and draws every character, a lone mark on a dotted circle', async () => {
  // Twice the pixels: the screenshots show the marks' shapes, and the atlas is built at that ratio.
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 2 });
  const { page, problems } = await openWatched(context, env.url + '?tr.width=16&tr.epochs=1');
  const fetched = [];
  page.on('response', (r) => { if (r.url().includes('/fonts/')) fetched.push(new URL(r.url()).pathname.slice(1)); });
  const loaded = new Set();
  for (const script of scripts) {
    const text = pairsText(script.pieces);
    assert.equal(text.split('\n').filter(Boolean).length, 155);
    const before = fetched.length;
    await page.locator('#own-pairs').scrollIntoViewIfNeeded();
    await useText(page, text);
    await until(`the ${script.name} task used`, async () => (await status(page)).includes('Figure 3 now trains on them'), 20000);
    await until(`the ${script.name} font`, async () => (await page.getAttribute('#own-pairs', 'data-own-pairs-fonts')) === 'loaded', 30000);
    assert.deepEqual(fetched.slice(before), loaded.has(script.font) ? [] : [script.font], `${script.name}: its one font, once`);
    loaded.add(script.font);

    // A frame drawn with the task's characters rebuilds the atlas.
    const characters = script.pieces.join('');
    await page.locator('canvas[data-figure="training"]').scrollIntoViewIfNeeded();
    await until(`the atlas to hold the ${script.name} characters`,
                async () => (await page.evaluate((t) => window.lookback.fontReport(t).missing, characters)).length === 0, 10000);

    const said = await status(page);
    assert.ok(!said.includes('\u25A1'), `${script.name}: no character shows as \u25A1: ${said}`);
    assert.equal(said.includes(rtlNote), Boolean(script.rtl), `${script.name}: ${said}`);
    assert.equal(said.includes(unshapedNote), [...characters].some(isMark), `${script.name}: ${said}`);
    if (script.map) await mapLabels(page, script);
  }
  const report = await page.evaluate(() => window.lookback.fontReport(''));
  console.log(`# ${scripts.length} scripts: fonts ${report.fonts.join(', ')}; atlas ${report.atlas.join(' × ')} px`);
  assert.deepEqual(problems, []);
  await context.close();
});

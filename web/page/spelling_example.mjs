// web/page/spelling_example.mjs — the "Your own pairs" block's real example: English spelling to
// sounds, from the CMU Pronouncing Dictionary (the npm package cmu-pronouncing-dictionary, ISC;
// its words and pronunciations are Carnegie Mellon University's cmudict). Written by build_page.mjs
// into examples/spelling-to-sounds.tsv: word tokens, a word's letters spaced on the left, its
// phonemes on the right, without an alignment (the dictionary gives none).
import { dictionary } from 'cmu-pronouncing-dictionary';

export const spellingExampleFile = 'spelling-to-sounds.tsv';
export const spellingExamplePairs = 5000;

// Words of four to ten plain letters, their first pronunciation (a key "word(1)" is a second one),
// the stress digits dropped (AH0 and AH1 are one phoneme, 39 in all), and only entries whose
// pronunciation is phonemes alone (a few carry a comment). Then 5,000 of them, evenly spaced in
// alphabetical order, so the file is the same on every build.
export function spellingExample() {
  const phonemes = /^[A-Z]{1,2}[0-2]?( [A-Z]{1,2}[0-2]?)*$/;
  const words = Object.keys(dictionary)
    .filter((word) => /^[a-z]{4,10}$/.test(word) && phonemes.test(dictionary[word]))
    .sort();
  if (words.length < spellingExamplePairs) throw new Error(`the dictionary has only ${words.length} words to draw from`);
  const lines = [];
  for (let k = 0; k < spellingExamplePairs; ++k) {
    const word = words[Math.floor((k * words.length) / spellingExamplePairs)];
    lines.push(`${[...word].join(' ')}\t${dictionary[word].replace(/[0-2]/g, '')}\n`);
  }
  return lines.join('');
}

// tests/browser/generated_pairs.mjs — reader's tasks made by a fixed generator, for the tests of
// links (tests/browser/own_pairs.test.mjs, tests/engines/smoke.mjs): a large word task like a
// teacher's, one that hardly compresses, and a task's link value made here as the page makes it
// (docs/own-pairs.md: the task file's JSON, raw DEFLATE, base64url).
import zlib from 'node:zlib';

// `count` made-up words spelled letter by letter to pseudo-phonemes, word tokens (a stand-in for
// English spelling to phonemes): syllables drawn by a fixed generator, each an onset, a vowel and
// a coda with one pronunciation each; distinct spellings only. About 26 bytes a pair.
export function spellingText(count) {
  let seed = 1;
  const below = (n) => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return Math.floor((seed / 4294967296) * n);
  };
  const table = (text) => text.split(' ').map((entry) => entry.split(':').map((side) => side.replaceAll('_', ' ')));
  const onsets = table('b:B c:K d:D f:F g:G h:HH j:JH k:K l:L m:M n:N p:P r:R s:S t:T v:V w:W z:Z ch:CH sh:SH th:TH ' +
    'br:B_R cl:K_L dr:D_R fl:F_L gr:G_R pl:P_L st:S_T tr:T_R sp:S_P');
  const vowels = table('a:AE e:EH i:IH o:AA u:AH ai:EY ee:IY oa:OW oo:UW ou:AW oi:OY ar:AA_R er:ER or:AO_R');
  const codas = [['', ''], ['', ''], ...table('b:B ck:K d:D ff:F g:G l:L m:M n:N ng:NG p:P ss:S t:T x:K_S nd:N_D st:S_T nt:N_T')];
  const seen = new Set();
  const lines = [];
  while (lines.length < count) {
    let spelled = '';
    const sounds = [];
    for (let syllable = 1 + below(2); syllable > 0; syllable--) {
      for (const part of [onsets, vowels, codas]) {
        const [letters, phones] = part[below(part.length)];
        spelled += letters;
        if (phones) sounds.push(phones);
      }
    }
    if (seen.has(spelled)) continue;
    seen.add(spelled);
    lines.push(`${[...spelled].join(' ')}\t${sounds.join(' ')}`);
  }
  return lines.join('\n') + '\n';
}

// `count` pairs of 40 random letters, each to its reverse: text that hardly compresses.
export function randomLettersText(count) {
  let seed = 7;
  const letter = () => {
    seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0;
    return 'abcdefghijklmnopqrstuvwxyz'[Math.floor((seed / 4294967296) * 26)];
  };
  const lines = [];
  for (let i = 0; i < count; i++) {
    const word = Array.from({ length: 40 }, letter).join('');
    lines.push(`${word}\t${[...word].reverse().join('')}`);
  }
  return lines.join('\n') + '\n';
}

// The value of a link's pairs.task for `text`: the options the page uses by default.
export function taskLinkValue(text, tokens) {
  const json = JSON.stringify({ lookback: 'pairs task', drop_duplicates: true, format: 'detect', held_out: 0, name: 'your-pairs',
    split_seed: 1, text, tokens });
  return zlib.deflateRawSync(json, { level: 9 }).toString('base64url');
}

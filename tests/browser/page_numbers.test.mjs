// tests/browser/page_numbers.test.mjs — every number of the article that we measured is written
// as <span data-measured="FILE:PATH">TEXT</span>: FILE is a JSON file of the site's assets/, PATH
// walks it by `/`-separated segments (an object key, an array index, or a filter
// [key=value,key2=value2] that picks the first array element whose fields equal those values,
// numbers compared as numbers), and an optional data-scale multiplies the value (percentages).
// TEXT's number must equal the value × scale rounded to as many decimals as TEXT shows, so a
// future sweep that changes a number fails here until the prose is rewritten to match.
//
// Checked twice: in the page as a reader with JavaScript sees it, and in the served HTML as a
// reader without JavaScript gets it (the figures' text alternatives replace their no-script
// tables, which hold numbers too).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { disagreement, resolve } from './asset_path.mjs';
import { openWatched, state, until, useBrowser } from './helpers.mjs';

test('the checker itself: paths, filters and rounding, by hand', () => {
  const json = { runs: [{ model: 'plain', width: 8, exact: 0 }, { model: 'attention', width: 8, exact: 0.0016666 },
    { model: 'attention', width: 16, exact: 0.5333333, per_position: [0.1, 0.91923] }], note: { 'a b': 2.5 } };
  assert.equal(resolve(json, 'runs/[model=attention,width=16]/exact'), 0.5333333);
  assert.equal(resolve(json, 'runs/[model=attention,width=8]/exact'), 0.0016666);
  assert.equal(resolve(json, 'runs/2/per_position/1'), 0.91923);
  assert.equal(resolve(json, 'note/a b'), 2.5);
  assert.throws(() => resolve(json, 'runs/[model=attention,width=32]/exact'), /no element matches/);
  assert.throws(() => resolve(json, 'runs/2/per_position/2'), /past the end/);
  assert.throws(() => resolve(json, 'runs/0/model'), /not a number/);
  assert.throws(() => resolve(json, 'runs/0/missing'), /no such key/);
  assert.equal(disagreement('0.5333', 0.5333333), null);
  assert.equal(disagreement('0.0017', 0.0016666), null);
  assert.equal(disagreement('92', 0.91923, 100), null);
  assert.equal(disagreement('6,000', 6000), null);
  assert.match(disagreement('0.5334', 0.5333333), /rounds to 0.5333/);
  assert.match(disagreement('0.0016', 0.0016666), /rounds to 0.0017/);
  assert.match(disagreement('91', 0.91923, 100), /rounds to 92/);
  assert.match(disagreement('8 to 26', 8), /exactly one number/);
});

const env = useBrowser();

// [{ measured, scale, text }] of every span in the live page and in the served HTML.
async function spans(page) {
  return page.evaluate(async () => {
    const read = (root) => [...root.querySelectorAll('[data-measured]')].map((element) => ({
      measured: element.dataset.measured, scale: element.dataset.scale ?? null, text: element.textContent.trim(),
    }));
    const served = new DOMParser().parseFromString(await (await fetch('index.html')).text(), 'text/html');
    return { live: read(document), served: read(served) };
  });
}

test('every measured number of the article agrees with the assets it names', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const { page, problems } = await openWatched(context, env.url);
  const { live, served } = await spans(page);
  const files = {};
  const failures = [];
  for (const [where, list] of [['page', live], ['served HTML', served]]) {
    for (const { measured, scale, text } of list) {
      const colon = measured.indexOf(':');
      const file = measured.slice(0, colon), path = measured.slice(colon + 1);
      if (colon < 1 || !/^[\w.-]+\.json$/.test(file)) {
        failures.push(`${where}: data-measured="${measured}" is not FILE.json:PATH`);
        continue;
      }
      if (!(file in files)) {
        const response = await fetch(new URL(`assets/${file}`, env.url));
        files[file] = response.ok ? await response.json() : null;
      }
      if (!files[file]) {
        failures.push(`${where}: assets/${file} is not served`);
        continue;
      }
      if (scale !== null && !(Number(scale) > 0)) {
        failures.push(`${where}: ${measured}: data-scale="${scale}" is not a positive number`);
        continue;
      }
      try {
        const problem = disagreement(text, resolve(files[file], path), scale === null ? 1 : Number(scale));
        if (problem) failures.push(`${where}: ${measured}: ${problem}`);
      } catch (error) {
        failures.push(`${where}: ${measured}: ${error.message}`);
      }
    }
  }
  assert.deepEqual(failures, []);

  // The claims the lesson rests on stay marked: removing a span cannot hide a contradiction.
  const marked = new Set(served.map((s) => s.measured));
  const required = [
    'sweep.json:runs/[model=plain,width=8]/exact', 'sweep.json:runs/[model=attention,width=8]/exact',
    'sweep.json:runs/[model=attention,width=16]/exact', 'sweep.json:runs/[model=plain,width=8]/per_char',
    'sweep.json:source/plain_per_char/0', 'sweep.json:runs/[model=plain,width=64]/parameters',
    'sweep.json:runs/[model=attention,width=64]/parameters', 'gradient_path.json:plain/gradient_path/last_over_first',
  ];
  for (const width of [8, 16, 32, 64]) {
    for (const model of ['plain', 'attention']) {
      for (const metric of ['exact', 'per_char']) required.push(`sweep.json:runs/[model=${model},width=${width}]/${metric}`);
    }
  }
  for (let i = 0; i < 10; i++) {
    for (const model of ['plain', 'attention']) required.push(`sweep.json:runs/[model=${model},width=64]/per_position/${i}`);
  }
  for (let i = 0; i < 6; i++) required.push(`sweep.json:runs/[model=plain,width=64]/per_format/${i}`);
  // The per-position claims are read against chance: the month's and day's digits, and the guess.
  for (const i of [5, 6, 8, 9]) required.push(`chance.json:majority_share/${i}`);
  required.push('chance.json:year_and_dashes_per_char');
  assert.deepEqual(required.filter((r) => !marked.has(r)), [], 'measured claims without their data-measured span');
  // JavaScript replaces only the figures' text alternatives (Figure 4's no-script table).
  assert.ok(live.length > 80 && served.length >= live.length, `${live.length} spans in the page, ${served.length} served`);
  assert.deepEqual(problems, []);
  await context.close();
});

test('assets/gradient_path.json agrees with the gradients Figure 6 computes in the page', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const { page, problems } = await openWatched(context, env.url);
  const file = await (await fetch(new URL('assets/gradient_path.json', env.url))).json();
  await page.locator('canvas[data-figure="probes"]').scrollIntoViewIfNeeded();
  await until('the probes to compute', async () => (await state(page, 'probes')).grad_norms.plain.length > 0, 15000);
  const live = await state(page, 'probes');
  assert.equal(live.input, file.plain.input, 'the figure starts on the string the file measured');
  assert.equal(live.gradient_target, file.plain.gradient_path.target);
  for (const model of ['plain', 'attention']) {
    const norms = live.grad_norms[model];
    const measured = file[model].gradient_path;
    // The page computes in wasm with SIMD, the file came from the native build: same model,
    // different float rounding, so agreement to 1 % per position.
    assert.equal(norms.length, measured.total.length);
    norms.forEach((n, j) => assert.ok(Math.abs(n - measured.total[j]) <= 0.01 * measured.total[j], `${model} at ${j}: page ${n}, file ${measured.total[j]}`));
    const ratio = norms.at(-1) / norms[0];
    assert.ok(Math.abs(ratio - measured.last_over_first) <= 0.02 * measured.last_over_first, `${model}: ${ratio} against ${measured.last_over_first}`);
  }
  assert.deepEqual(problems, []);
  await context.close();
});

test('Figure 4 draws the chance line that assets/chance.json holds', async () => {
  const context = await env.browser.newContext({ viewport: { width: 1280, height: 900 } });
  const { page, problems } = await openWatched(context, env.url);
  const file = await (await fetch(new URL('assets/chance.json', env.url))).json();
  await page.locator('canvas[data-figure="sweep"]').scrollIntoViewIfNeeded();
  await until('the per-position views', async () => (await state(page, 'sweep')).views !== null, 30000);
  const drawn = (await state(page, 'sweep')).views.chance_per_position;
  // Both are counts over the same 1,200 strings divided by 1,200: equal to the last bit.
  assert.equal(drawn.length, 10);
  drawn.forEach((share, t) => assert.equal(share, file.majority_share[t], `position ${t + 1}`));
  // A share is a count of the 1,200 held-out strings; the month's first digit is 0 for nine months of twelve.
  for (const share of drawn) assert.ok(Number.isInteger(Math.round(share * file.held_out_size * 1e6) / 1e6));
  assert.equal(file.majority_char[5], '0');
  assert.ok(Math.abs(file.majority_share[5] - 0.75) < 0.05);
  assert.deepEqual(problems, []);
  await context.close();
});

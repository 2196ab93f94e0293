// tests/browser/published_models.test.mjs — the training module (lookback_trainer.wasm, the
// module the page's workers run) trains the published attention models under node: a run of
// each, configured with the command line's field names (model, scorer, input_feeding), makes
// the loss fall; a combination the command line refuses is refused by name, and the module
// stays usable.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { test } from 'node:test';
import { site } from './helpers.mjs';

const folder = process.env.LOOKBACK_SITE || site;

async function trainerModule() {
  const create = createRequire(import.meta.url)(path.join(folder, 'lookback_trainer.js'));
  return create({ wasmBinary: fs.readFileSync(path.join(folder, 'lookback_trainer.wasm')) });
}

const runs = [
  { model: 'bahdanau', width: 16 },
  { model: 'luong', scorer: 'dot', width: 16 },
  { model: 'luong', scorer: 'general', input_feeding: true, width: 16 },
  { model: 'luong', scorer: 'concat', width: 16 },
  { model: 'luong-local', width: 16 },
  { model: 'luong-local', scorer: 'dot', input_feeding: true, width: 16 },
];

test('a worker-module run of each published model makes the loss fall', async () => {
  const module = await trainerModule();
  for (const config of runs) {
    const id = module.ccall('lbt_create', 'number', ['string'], [JSON.stringify({ ...config, epochs: 1, seed: 2 })]);
    assert.ok(id >= 0, module.UTF8ToString(module._lbt_message()));
    module._lbt_work(id, 1e9, 40);
    const { losses } = JSON.parse(module.UTF8ToString(module._lbt_report(id)));
    assert.equal(losses.length, 40, JSON.stringify(config));
    const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const early = mean(losses.slice(0, 3)), late = mean(losses.slice(-3));
    assert.ok(late < 0.95 * early, `${JSON.stringify(config)}: ${early} → ${late}`);
    module._lbt_destroy(id);
  }
});

test('the module refuses what the command line refuses, by name, and stays usable', async () => {
  const module = await trainerModule();
  const refused = [
    [{ model: 'luong-local', scorer: 'concat' }, /dot or general/],
    [{ model: 'luong', scorer: 'additive' }, /dot, general or concat/],
    [{ model: 'bahdanau', scorer: 'dot' }, /additive/],
    [{ model: 'attention', input_feeding: true }, /luong/],
    [{ model: 'luong', input_feeding: 'yes' }, /true or false/],
    [{ model: 'gpt' }, /model must be/],
  ];
  for (const [config, why] of refused) {
    const id = module.ccall('lbt_create', 'number', ['string'], [JSON.stringify(config)]);
    assert.equal(id, -1, JSON.stringify(config));
    assert.match(module.UTF8ToString(module._lbt_message()), why);
  }
  const id = module.ccall('lbt_create', 'number', ['string'], [JSON.stringify({ model: 'luong', width: 8 })]);
  assert.ok(id >= 0, module.UTF8ToString(module._lbt_message()));
});

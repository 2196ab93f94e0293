// tests/browser/palette.test.mjs — the heatmaps' colours (shaders/heatmap.frag, Colormap in
// web/runtime/heatmap.h) as a reader with a colour-vision deficiency sees them. Each map's eleven
// stops (weights 0, 0.1, …, 1 of the sequential map the attention maps use; the diverging one too)
// are passed through the simulation of protanopia, deuteranopia and tritanopia of Machado, Oliveira
// and Fernandes (2009) at severity 1.0, applied to linear sRGB, and compared in CIELAB:
//   - adjacent stops differ by ΔE2000 ≥ 3 (about three just-noticeable differences: two cells a
//     tenth apart stay distinguishable side by side);
//   - in the sequential map, lightness L* rises by ≥ 5 at every step, so a weight's order reads
//     from lightness alone, whatever hue a reader sees.
// The arithmetic is checked first against published values (Sharma, Wu and Dalal's CIEDE2000
// test pairs, sRGB red's L*a*b*), and a red-to-green ramp of one lightness, which those readers
// cannot read, must fail the same criterion. Node only: it reads the shader's source.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { root } from './helpers.mjs';

const shader = fs.readFileSync(path.join(root, 'shaders/heatmap.frag'), 'utf8');
// A map's stops as 0–255 sRGB triples, read from the shader's constant array.
function stops(name) {
  const body = shader.match(new RegExp(`const vec3 ${name}\\[11\\] = vec3\\[11\\]\\(([\\s\\S]*?)\\);`));
  assert.ok(body, `shaders/heatmap.frag has no ${name}[11]`);
  const list = [...body[1].matchAll(/vec3\((\d+),\s*(\d+),\s*(\d+)\)/g)].map((m) => m.slice(1, 4).map(Number));
  assert.equal(list.length, 11);
  return list;
}

// Machado et al. 2009, Table 1, severity 1.0 (rows act on linear RGB).
const simulations = {
  'normal vision': [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
  protanopia: [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
  deuteranopia: [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]],
  tritanopia: [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]],
};
const linear = (v) => { const c = v / 255; return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
const simulate = (m, rgb) => m.map((row) => Math.min(1, Math.max(0, row[0] * rgb[0] + row[1] * rgb[1] + row[2] * rgb[2])));
// Linear sRGB to CIELAB, D65 white.
function lab([r, g, b]) {
  const x = 0.4124564 * r + 0.3575761 * g + 0.1804375 * b;
  const y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b;
  const z = 0.0193339 * r + 0.1191920 * g + 0.9503041 * b;
  const f = (t) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116);
  const fx = f(x / 0.95047), fy = f(y), fz = f(z / 1.08883);
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}
// CIEDE2000 (Sharma, Wu and Dalal 2005), kL = kC = kH = 1.
function deltaE2000([L1, a1, b1], [L2, a2, b2]) {
  const deg = Math.PI / 180;
  const C7 = ((Math.hypot(a1, b1) + Math.hypot(a2, b2)) / 2) ** 7;
  const G = 0.5 * (1 - Math.sqrt(C7 / (C7 + 25 ** 7)));
  const a1p = (1 + G) * a1, a2p = (1 + G) * a2;
  const C1 = Math.hypot(a1p, b1), C2 = Math.hypot(a2p, b2);
  const hue = (b, a) => (a === 0 && b === 0 ? 0 : (Math.atan2(b, a) / deg + 360) % 360);
  const h1 = hue(b1, a1p), h2 = hue(b2, a2p);
  let dh = 0;
  if (C1 * C2 !== 0) dh = h2 - h1 > 180 ? h2 - h1 - 360 : h2 - h1 < -180 ? h2 - h1 + 360 : h2 - h1;
  const dL = L2 - L1, dC = C2 - C1, dH = 2 * Math.sqrt(C1 * C2) * Math.sin((dh / 2) * deg);
  const L = (L1 + L2) / 2, C = (C1 + C2) / 2;
  let h = h1 + h2;
  if (C1 * C2 !== 0) h = Math.abs(h1 - h2) <= 180 ? (h1 + h2) / 2 : h1 + h2 < 360 ? (h1 + h2 + 360) / 2 : (h1 + h2 - 360) / 2;
  const T = 1 - 0.17 * Math.cos((h - 30) * deg) + 0.24 * Math.cos(2 * h * deg) + 0.32 * Math.cos((3 * h + 6) * deg) -
    0.2 * Math.cos((4 * h - 63) * deg);
  const SL = 1 + (0.015 * (L - 50) ** 2) / Math.sqrt(20 + (L - 50) ** 2), SC = 1 + 0.045 * C, SH = 1 + 0.015 * C * T;
  const RT = -Math.sin(2 * 30 * Math.exp(-(((h - 275) / 25) ** 2)) * deg) * 2 * Math.sqrt(C ** 7 / (C ** 7 + 25 ** 7));
  return Math.sqrt((dL / SL) ** 2 + (dC / SC) ** 2 + (dH / SH) ** 2 + RT * (dC / SC) * (dH / SH));
}

// Each adjacent pair of `colours` (0–255 sRGB) under `m`: its ΔE2000 and the rise of L*.
function steps(m, colours) {
  const seen = colours.map((c) => lab(simulate(m, c.map(linear))));
  return seen.slice(1).map((c, k) => ({ k, dE: deltaE2000(seen[k], c), dL: c[0] - seen[k][0] }));
}
const minDE = 3, minRise = 5;

test('the colour arithmetic reproduces published values', () => {
  // Sharma et al. 2005, Table 1, pairs 1, 7 and 17.
  assert.equal(deltaE2000([50, 2.6772, -79.7751], [50, 0, -82.7485]).toFixed(4), '2.0425');
  assert.equal(deltaE2000([50, 0, 0], [50, -1, 2]).toFixed(4), '2.3669');
  assert.equal(deltaE2000([50, 2.5, 0], [73, 25, -18]).toFixed(4), '27.1492');
  // sRGB red is L*a*b* (53.24, 80.09, 67.20); white is (100, 0, 0).
  assert.deepEqual(lab([1, 0, 0]).map((v) => v.toFixed(2)), ['53.24', '80.09', '67.20']);
  assert.deepEqual(lab([1, 1, 1]).map((v) => Math.abs(v).toFixed(2)), ['100.00', '0.00', '0.00']);
  // The simulations keep greys grey (each row sums to 1) and change saturated red and green.
  for (const [name, m] of Object.entries(simulations)) {
    for (const row of m) assert.ok(Math.abs(row[0] + row[1] + row[2] - 1) < 1e-5, name);
  }
  assert.ok(deltaE2000(lab(simulate(simulations.deuteranopia, [1, 0, 0])), lab([1, 0, 0])) > 20);
});

test('a red-to-green ramp of one lightness fails the criterion for protanopia and deuteranopia', () => {
  const ramp = Array.from({ length: 11 }, (_, k) => [200 - 14 * k, 60 + 9 * k, 60]);
  for (const name of ['protanopia', 'deuteranopia']) {
    const worst = Math.min(...steps(simulations[name], ramp).map((s) => s.dE));
    assert.ok(worst < 1, `${name}: the ramp's closest steps are ΔE2000 ${worst.toFixed(2)} apart`);
  }
});

test('the maps\' colours: adjacent tenths stay distinguishable, and the weights\' map rises in lightness, under each deficiency', () => {
  for (const [map, monotonic] of [['VIRIDIS', true], ['BLUE_WHITE_RED', false]]) {
    for (const [name, m] of Object.entries(simulations)) {
      for (const s of steps(m, stops(map))) {
        const where = `${map} under ${name}, stops ${s.k / 10}–${(s.k + 1) / 10}`;
        assert.ok(s.dE >= minDE, `${where}: ΔE2000 ${s.dE.toFixed(2)} < ${minDE}`);
        if (monotonic) assert.ok(s.dL >= minRise, `${where}: L* rises ${s.dL.toFixed(2)} < ${minRise}`);
      }
    }
  }
});

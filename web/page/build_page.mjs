// web/page/build_page.mjs — assembles the site into one folder:
//
//   node web/page/build_page.mjs build/site
//
// index.html with its math rendered to HTML and MathML by KaTeX (so nothing typesets at run time) and a
// toolbar under each figure (save it, copy its link); embed.html, which shows one of those figures
// alone (embed.js picks it); the page's CSS, scripts, icon and manifest (web/page/), the training
// worker's scripts (web/worker/), the two wasm modules from build/wasm (the page's and the
// trainer's) and fonts/ (fuller fonts for a reader's task), assets/ with the shipped models and
// their list (assets/shipped.json), KaTeX's CSS
// and fonts, favicon.ico (drawn from favicon.svg); last the service worker, versioned by a hash of all of it (offline.mjs).
//
// Math in web/page/index.html: \( ... \) inline, \[ ... \] displayed. Write <, > and & in TeX as
// &lt; &gt; &amp; like any HTML text. Not looked at inside <script>, <style>, <pre>, <code>.
// A TeX error fails the build with its line number.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import katex from 'katex';
import { workerFile, writeServiceWorker } from './offline.mjs';
import { spellingExample, spellingExampleFile } from './spelling_example.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const out = path.resolve(process.argv[2] ?? path.join(root, 'build/site'));
const page = path.join(root, 'web/page');
const worker = path.join(root, 'web/worker');
const wasm = path.join(root, 'build/wasm');
const katexDist = path.join(root, 'node_modules/katex/dist');

function fail(message) {
  console.error(`build_page: ${message}`);
  process.exit(1);
}

const entities = { '&lt;': '<', '&gt;': '>', '&amp;': '&', '&quot;': '"', '&#39;': "'", '&nbsp;': '\u00a0' };
const decodeEntities = (text) => text.replace(/&(lt|gt|amp|quot|#39|nbsp);/g, (e) => entities[e]);

// Renders every \( \) and \[ \] outside <script>, <style>, <pre> and <code>.
function renderMath(html, file) {
  const lineAt = (offset) => html.slice(0, offset).split('\n').length;
  const skipped = /<(script|style|pre|code)\b[\s\S]*?<\/\1\s*>/gi;
  // Punctuation right after inline math is kept with it, so a line never starts with a comma.
  const math = /\\\[([\s\S]+?)\\\]|\\\(([\s\S]+?)\\\)([,.;:!?)]*)/g;
  let result = '';
  let from = 0;
  const renderText = (text, offset) => {
    const rendered = text.replace(math, (match, display, inline, punctuation, at) => {
      const tex = decodeEntities(display ?? inline);
      try {
        // The HTML is what is seen, hidden from assistive technology (KaTeX marks it aria-hidden);
        // the MathML beside it, visually hidden, is what screen readers read as mathematics. A
        // name from the TeX was silent in Chromium and spoken as raw TeX in Firefox.
        const html = katex.renderToString(tex, { output: 'htmlAndMathml', throwOnError: true, displayMode: display !== undefined });
        return punctuation ? `<span class="math-nowrap">${html}${punctuation}</span>` : html;
      } catch (error) {
        fail(`${file}:${lineAt(offset + at)}: KaTeX: ${error.message}\n  in: ${tex}`);
      }
    });
    const open = rendered.search(/\\\(|\\\[/);
    if (open >= 0) fail(`${file}: a math delimiter is never closed: ${rendered.slice(open, open + 60)}`);
    return rendered;
  };
  for (const block of html.matchAll(skipped)) {
    result += renderText(html.slice(from, block.index), from) + block[0];
    from = block.index + block[0].length;
  }
  return result + renderText(html.slice(from), from);
}

// The article's figures: each <figure class="figure"> holding a <canvas data-figure="NAME">, with
// its title ("Figure 3", from its caption).
function figuresOf(article) {
  return [...article.matchAll(/<figure class="figure"[^>]*>[\s\S]*?<\/figure>/g)].flatMap(([markup]) => {
    const name = markup.match(/<canvas data-figure="([^"]+)"/)?.[1];
    if (!name) return [];
    const title = markup.match(/<figcaption[^>]*><b>(Figure [^<]+?)\.<\/b>/)?.[1];
    if (!title) fail(`the figure of canvas ${name} has no caption starting <b>Figure N.</b>`);
    return [{ name, title, markup }];
  });
}

// Under each figure's canvas: save what it shows as an image, its data as JSON and (where it
// shows a table) CSV, copy its link; lookback.js wires the buttons. "Unlock" shows on a figure
// its link locked.
function withToolbars(article) {
  const figures = figuresOf(article);
  if (figures.length === 0) fail('web/page/index.html has no <figure class="figure"> with a canvas');
  for (const { title, markup } of figures) {
    const tools = `</canvas>
          <div class="figure-tools" role="toolbar" aria-label="${title}: save or share">
            <button type="button" data-export="png">Save image (PNG)</button>
            <button type="button" data-export="json">Save data (JSON)</button>
            <button type="button" data-export="csv" hidden>Save table (CSV)</button>
            <button type="button" data-export="link">Copy link</button>
            <a class="figure-unlock" href="./" hidden>Unlock</a>
            <span class="figure-tools-status" role="status"></span>
          </div>`;
    article = article.replace(markup, () => markup.replace('</canvas>', tools));
  }
  return article;
}

function replaceOnce(text, from, to, what) {
  if (!text.includes(from)) fail(`embed.html: index.html's head no longer has ${what}`);
  return text.replace(from, () => to);
}

// embed.html: the article's head (its Content-Security-Policy, styles and scripts, without the
// self-check's) and every figure in a <template data-embed="NAME">; embed.js shows the one its
// link names, or says which names there are. Links into the article open it in a new tab.
function embedPage(article) {
  let head = article.match(/<head>[\s\S]*?<\/head>/)[0];
  head = replaceOnce(head, head.match(/<title>[^<]*<\/title>/)?.[0] ?? '<title></title>', '<title>A figure of Lookback</title>', 'a <title>');
  head = replaceOnce(head, '<script src="lookback.js" defer></script>',
    '<script src="embed.js" defer></script>\n  <script src="lookback.js" defer></script>', 'the lookback.js script');
  head = replaceOnce(head, head.match(/<!-- The self-check[^]*?<script src="lesson_selfcheck.js" defer><\/script>\n\s*/)?.[0] ?? '<script src="lesson_selfcheck.js"',
    '', 'the self-check script');
  const figures = figuresOf(article);
  const templates = figures.map(({ name, markup }) => `    <template data-embed="${name}">
      ${markup.replace(/<a ([^>]*?)href="#([^"]*)"/g, '<a $1href="index.html#$2" target="_blank"')}
    </template>`).join('\n');
  const names = figures.map(({ name, title }) => `<li><a href="embed.html?figure=${name}">${name}</a> (${title})</li>`).join('');
  return `<!DOCTYPE html>
<html lang="en">
${head}
<body class="embed">
  <main>
    <h1 class="embed-title">A figure of Lookback</h1>
    <div class="embed-refusal" role="alert" hidden>
      <p><span class="embed-asked"></span> The figures of Lookback are:</p>
      <ul>${names}</ul>
    </div>
${templates}
    <p class="embed-source"><a href="index.html" target="_blank">Lookback: attention before Transformers</a></p>
  </main>
</body>
</html>
`;
}

// favicon.svg is rounded rectangles only (<rect x y width height rx fill opacity>, in a 32 × 32
// viewBox): each pixel of a size × size image is 4 × 4 samples of them, painted in order. Returns
// an ICO file holding that image as a PNG (an ICO entry may be a PNG since Windows Vista; every
// browser reads it).
function iconFromSvg(svg, size) {
  const number = (attributes, name, otherwise) => Number(attributes.match(new RegExp(`\\b${name}="([^"]+)"`))?.[1] ?? otherwise);
  const rects = [...svg.matchAll(/<rect\b([^>]*)>/g)].map(([, a]) => {
    const fill = a.match(/\bfill="#([0-9a-f]{6})"/i)?.[1];
    if (!fill) fail('favicon.svg: a <rect> without a fill="#rrggbb"');
    return { x: number(a, 'x', 0), y: number(a, 'y', 0), w: number(a, 'width'), h: number(a, 'height'),
             r: number(a, 'rx', 0), alpha: number(a, 'opacity', 1), rgb: [0, 2, 4].map((i) => parseInt(fill.slice(i, i + 2), 16)) };
  });
  if (rects.length === 0 || !/viewBox="0 0 32 32"/.test(svg)) fail('favicon.svg: expected rectangles in a 32 × 32 viewBox');
  const inside = ({ x, y, w, h, r }, px, py) => {
    if (px < x || py < y || px > x + w || py > y + h) return false;
    const cx = Math.min(Math.max(px, x + r), x + w - r), cy = Math.min(Math.max(py, y + r), y + h - r);
    return (px - cx) ** 2 + (py - cy) ** 2 <= r * r;
  };
  const scale = 32 / size, samples = 4;
  const raw = Buffer.alloc(size * (size * 4 + 1));  // each row: filter byte 0, then RGBA
  for (let row = 0; row < size; row++) {
    for (let col = 0; col < size; col++) {
      const sum = [0, 0, 0, 0];
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const px = (col + (sx + 0.5) / samples) * scale, py = (row + (sy + 0.5) / samples) * scale;
          let colour = [0, 0, 0], alpha = 0;  // premultiplied, painted back to front
          for (const rect of rects) {
            if (!inside(rect, px, py)) continue;
            colour = colour.map((c, i) => rect.rgb[i] * rect.alpha + c * (1 - rect.alpha));
            alpha = rect.alpha + alpha * (1 - rect.alpha);
          }
          colour.forEach((c, i) => { sum[i] += c; });
          sum[3] += alpha;
        }
      }
      const n = samples * samples, at = row * (size * 4 + 1) + 1 + col * 4;
      const a = sum[3] / n;
      for (let i = 0; i < 3; i++) raw[at + i] = a > 0 ? Math.round(sum[i] / n / a) : 0;
      raw[at + 3] = Math.round(a * 255);
    }
  }
  const crcTable = Array.from({ length: 256 }, (_, k) => {
    let c = k;
    for (let j = 0; j < 8; j++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const chunk = (type, data) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    let c = 0xffffffff;
    for (const b of body) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE((c ^ 0xffffffff) >>> 0, body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);  // 8 bits per channel, RGBA, deflate, no filter method, no interlace
  const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
  const ico = Buffer.alloc(6 + 16);
  ico.writeUInt16LE(1, 2);  // an icon
  ico.writeUInt16LE(1, 4);  // one image
  ico.set([size % 256, size % 256, 0, 0], 6);  // width, height (0 = 256), no palette
  ico.writeUInt16LE(1, 10);   // colour planes
  ico.writeUInt16LE(32, 12);  // bits per pixel
  ico.writeUInt32LE(png.length, 14);
  ico.writeUInt32LE(22, 18);  // where the image starts
  return Buffer.concat([ico, png]);
}

function copy(from, to) {
  if (!fs.existsSync(from)) fail(`${path.relative(root, from)} is missing`);
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.cpSync(from, to, { recursive: true });
}

// assets/shipped.json, what the page's Lab loads (web/lab/assets.cpp): every model the build
// trained, with the settings that tell it apart read from its own metadata (the model, its task —
// the dates when the file records none — and a Transformer's memory), and every task's alignment
// sweep with the task its file names. The page asks for exactly these files: a task without one
// (one added later, or at run time) is said to have none instead of asked for a file not there.
function writeShippedList(folder) {
  const files = fs.readdirSync(folder).sort();
  const models = files.filter((f) => f.endsWith('.safetensors')).map((file) => {
    const bytes = fs.readFileSync(path.join(folder, file));
    const header = JSON.parse(bytes.subarray(8, 8 + Number(bytes.readBigUInt64LE(0))).toString('utf8'));
    const metadata = header.__metadata__ ?? {};
    if (!metadata.model) fail(`assets/${file} records no model in its metadata`);
    const settings = { model: metadata.model, task: metadata.task ?? 'dates' };
    if (metadata.memory) settings.memory = metadata.memory;
    return { file: `assets/${file}`, settings };
  });
  const sweeps = files.filter((f) => /^alignment-.*\.json$/.test(f)).map((file) => {
    const task = JSON.parse(fs.readFileSync(path.join(folder, file), 'utf8')).task;
    if (typeof task !== 'string') fail(`assets/${file} names no task`);
    return { file: `assets/${file}`, task };
  });
  fs.writeFileSync(path.join(folder, 'shipped.json'), JSON.stringify({ models, alignment_sweeps: sweeps }, null, 1) + '\n');
}

const modules = ['lookback_web.js', 'lookback_web.wasm', 'lookback_trainer.js', 'lookback_trainer.wasm'];
for (const file of modules) {
  if (!fs.existsSync(path.join(wasm, file))) fail(`build/wasm/${file} is missing: build the module first (./build_wasm.sh)`);
}

fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out, { recursive: true });

const html = fs.readFileSync(path.join(page, 'index.html'), 'utf8');
const article = withToolbars(renderMath(html, 'web/page/index.html'));
fs.writeFileSync(path.join(out, 'index.html'), article);
fs.writeFileSync(path.join(out, 'embed.html'), embedPage(article));
// The page's own files and the worker's: stylesheets, scripts, icon, manifest (node scripts are
// .mjs; the service worker is written last, below).
for (const folder of [page, worker]) {
  for (const file of fs.readdirSync(folder).filter((f) => /\.(css|js|svg|webmanifest)$/.test(f) && f !== workerFile)) {
    copy(path.join(folder, file), path.join(out, file));
  }
}
for (const file of modules) copy(path.join(wasm, file), path.join(out, file));
// The fuller fonts for a reader's task, made by the module's build from Debian's files
// (CMakeLists.txt's LOOKBACK_SHIPPED_FONTS): the page fetches one only for a task that needs it,
// and the service worker keeps it once fetched, not before (offline.mjs's onDemand).
copy(path.join(wasm, 'fonts'), path.join(out, 'fonts'));
if (fs.existsSync(path.join(root, 'assets'))) copy(path.join(root, 'assets'), path.join(out, 'assets'));
// The shipped weights, trained by the build (build_wasm.sh's build_weights).
if (fs.existsSync(path.join(root, 'build/assets'))) copy(path.join(root, 'build/assets'), path.join(out, 'assets'));
writeShippedList(path.join(out, 'assets'));
// The "Your own pairs" block's example files (docs/own-pairs.md), written by the native tool,
// which reads each back as a reader's task first; cached for offline reading like every file.
const cli = process.env.LOOKBACK_CLI ?? path.join(root, 'build/native/lookback');
if (!fs.existsSync(cli)) fail(`${path.relative(root, cli)} is missing: build natively first (./build_wasm.sh)`);
try {
  execFileSync(cli, ['pairs-examples', '--out', path.join(out, 'examples')], { stdio: ['ignore', 'ignore', 'pipe'] });
} catch (error) {
  fail(`lookback pairs-examples failed: ${error.stderr || error.message}`);
}
for (const file of ['numbers.tsv', 'reversed-words.tsv', 'transliteration.tsv']) {
  if (!fs.existsSync(path.join(out, 'examples', file))) fail(`lookback pairs-examples wrote no examples/${file}`);
}
// The real one, from a published dictionary (spelling_example.mjs).
fs.writeFileSync(path.join(out, 'examples', spellingExampleFile), spellingExample());

// KaTeX: its CSS and the woff2 fonts it names. Every browser the page supports reads woff2, so the
// stylesheet's .woff and .ttf fallbacks, which a browser asks for when a woff2 download fails or
// is cut short, are taken out rather than shipped (they were 404s). Every url() left must be a
// file of the site.
const katexCss = fs.readFileSync(path.join(katexDist, 'katex.min.css'), 'utf8')
  .replace(/,\s*url\([^)]*\.(woff|ttf)\)\s*format\("(woff|truetype)"\)/g, '');
for (const [, url] of katexCss.matchAll(/url\(([^)]*)\)/g)) {
  if (!url.endsWith('.woff2')) fail(`katex.min.css still names ${url}: only its woff2 fonts are shipped`);
  copy(path.join(katexDist, url), path.join(out, 'katex', url));
}
fs.mkdirSync(path.join(out, 'katex'), { recursive: true });
fs.writeFileSync(path.join(out, 'katex/katex.min.css'), katexCss);

// /favicon.ico, which some browsers (WebKit) ask for whatever the page's <link rel="icon"> says:
// favicon.svg's rectangles drawn into a 32 × 32 PNG inside an ICO file.
fs.writeFileSync(path.join(out, 'favicon.ico'), iconFromSvg(fs.readFileSync(path.join(page, 'favicon.svg'), 'utf8'), 32));

const version = writeServiceWorker(out);
console.log(`build_page: site assembled in ${path.relative(process.cwd(), out) || '.'} (version ${version})`);

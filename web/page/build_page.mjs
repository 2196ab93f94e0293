// web/page/build_page.mjs — assembles the site into one folder:
//
//   node web/page/build_page.mjs build/site
//
// index.html with its math rendered to HTML by KaTeX (so nothing typesets at run time) and a
// toolbar under each figure (save it, copy its link); embed.html, which shows one of those figures
// alone (embed.js picks it); the page's CSS, scripts, icon and manifest (web/page/), the training
// worker's scripts (web/worker/), the two wasm modules from build/wasm (the page's and the
// trainer's), assets/, KaTeX's CSS and fonts; last the service worker, versioned by a hash of
// all of it (offline.mjs).
//
// Math in web/page/index.html: \( ... \) inline, \[ ... \] displayed. Write <, > and & in TeX as
// &lt; &gt; &amp; like any HTML text. Not looked at inside <script>, <style>, <pre>, <code>.
// A TeX error fails the build with its line number.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import katex from 'katex';
import { workerFile, writeServiceWorker } from './offline.mjs';

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
const escapeAttribute = (text) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

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
        // KaTeX's HTML is hidden from assistive technology; a formula is named by its TeX, as
        // Wikipedia's math images are (KaTeX's MathML would add a third to the page's elements).
        const html = katex.renderToString(tex, { output: 'html', throwOnError: true, displayMode: display !== undefined })
          .replace('<span class="katex">', `<span class="katex" role="math" aria-label="${escapeAttribute(tex.trim().replace(/\s+/g, ' '))}">`);
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

function copy(from, to) {
  if (!fs.existsSync(from)) fail(`${path.relative(root, from)} is missing`);
  fs.mkdirSync(path.dirname(to), { recursive: true });
  fs.cpSync(from, to, { recursive: true });
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
if (fs.existsSync(path.join(root, 'assets'))) copy(path.join(root, 'assets'), path.join(out, 'assets'));
// The shipped weights, trained by the build (build_wasm.sh's build_weights).
if (fs.existsSync(path.join(root, 'build/assets'))) copy(path.join(root, 'build/assets'), path.join(out, 'assets'));

// KaTeX: its CSS and the woff2 fonts it names first (every browser we serve reads woff2).
copy(path.join(katexDist, 'katex.min.css'), path.join(out, 'katex/katex.min.css'));
for (const font of fs.readdirSync(path.join(katexDist, 'fonts')).filter((f) => f.endsWith('.woff2'))) {
  copy(path.join(katexDist, 'fonts', font), path.join(out, 'katex/fonts', font));
}

const version = writeServiceWorker(out);
console.log(`build_page: site assembled in ${path.relative(process.cwd(), out) || '.'} (version ${version})`);

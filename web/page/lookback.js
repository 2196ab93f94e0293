// web/page/lookback.js — the page side of the figure runtime (web/runtime/host.cpp).
//
// Finds every <canvas data-figure="NAME">, gives it to the wasm module, and tells the module
// what only the page knows: the canvas's CSS box, devicePixelRatio and backing store
// (ResizeObserver), whether it is on screen (IntersectionObserver), whether the tab is visible
// and whether the reader prefers a dark theme. Does what the figures ask of the page: the CSS
// cursor, focus, a height that fits the content, the text alternative in
// [data-figure-alt="NAME"], its controls as HTML elements (mirror.js) and what it announces. Hands the module the training client (web/worker/client.js) as
// Module.lookbackRuns. Exposes window.lookback, a read-only test surface. Wires the toolbar under
// each figure (build_page.mjs writes it): the figure as a PNG, its state as JSON, the rows it shows
// as CSV, its link; Unlock on a figure its link locked. Registers the service worker that keeps
// the site for reading offline (service_worker.js).
//
// It runs deferred, once the article is parsed (index.html says why), starts the module (its
// wasm was preloaded) and attaches the canvases. A link into the page (#figure-3) is scrolled to
// only after parsing, so nothing is drawn sooner by attaching the canvases as they are parsed.
'use strict';
// The address's fragment, which is never sent to a server: an anchor in the page (a figure's id,
// own-pairs), then keys the page keeps there, each after an '&' (a reader's task, pairs.task=…):
// "#own-pairs&pairs.task=…", "#pairs.task=…" without an anchor, "#figure-3" without keys.
window.lookbackFragment = Object.freeze({
  read(hash) {
    const parts = hash.replace(/^#/, '').split('&');
    const anchor = parts[0].includes('=') ? '' : parts.shift();
    return { anchor, keys: new URLSearchParams(parts.join('&')) };
  },
  text(anchor, keys) {
    const written = keys.toString();
    return anchor && written ? `${anchor}&${written}` : anchor || written;
  },
});
(() => {
  const fragment = window.lookbackFragment;
  const byIndex = [];            // the module's figure index -> canvas
  const mirrors = [];            // the module's figure index -> its controls as HTML (mirror.js)
  const indexByName = new Map(); // figure name -> the module's figure index

  // A canvas's backing store in device pixels, from its CSS size: one rule for the page's resizes
  // and a figure's own height (a store one pixel off would be cleared and drawn again).
  const devicePixels = (css) => Math.round(css * (window.devicePixelRatio || 1));

  const host = {
    setCursor(index, css) { byIndex[index].style.cursor = css; },
    setTextAlternative(index, html) {
      const name = byIndex[index].dataset.figure;
      const element = document.querySelector(`[data-figure-alt="${name}"]`);
      if (!element) return;
      element.innerHTML = html;
      // A table to save as CSV, where the figure shows one.
      const csv = toolbarOf(byIndex[index])?.querySelector('[data-export="csv"]');
      if (csv) csv.hidden = !element.querySelector('table');
    },
    focus(index) { byIndex[index].focus({ preventScroll: true }); },
    // The backing store follows at once, so the figure's next frame, drawn right away, has the
    // new height. Returns it in device pixels.
    setHeight(index, css) {
      const canvas = byIndex[index];
      canvas.style.height = `${css}px`;
      const height = devicePixels(css);
      if (canvas.height !== height) canvas.height = height;
      return height;
    },
    origin(index) {
      const box = byIndex[index].getBoundingClientRect();
      return [box.left, box.top];
    },
    failed(index) { byIndex[index].dataset.figureFailed = ''; },
    setControls(index, json, busy) { mirrors[index].setControls(json, busy); },
    announce(index, text) { mirrors[index].announce(text); },
    // A figure wrote its keys: the address carries the reader's task if one now names it.
    addressWritten() { window.lookbackOwnPairs?.fitAddress(); },
  };

  // --- the toolbar under a figure -------------------------------------------------------------
  const toolbarOf = (canvas) => canvas.closest('figure')?.querySelector('.figure-tools');

  // The page's address now (each figure keeps its settings in it, and the reader's task rides in
  // its fragment when a figure names it), pointing at the figure.
  function figureLink(canvas) {
    const url = new URL(location.href);
    url.hash = fragment.text(canvas.closest('figure')?.id ?? canvas.id, fragment.read(url.hash).keys);
    return url.href;
  }
  // Whether the figure uses the reader's task while its link does not carry them (too large for a
  // link, or forgotten): the module then leaves its choice of the task out of the address.
  function leavesOutOwnPairs(canvas) {
    const name = module.ccall('lb_own_pairs_name', 'string', [], []);
    return window.lookback.state(canvas.dataset.figure).task === name && !fragment.read(location.hash).keys.has('pairs.task');
  }

  function save(file, blob) {
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = file;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
  }

  // PNG text chunks (iTXt: UTF-8, uncompressed) after the image header, so the file carries the
  // figure's title and the link that reproduces it. A chunk is its length, type, data and the
  // CRC-32 of type and data (PNG specification, 5.3).
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc32 = (bytes) => {
    let c = 0xffffffff;
    for (const b of bytes) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  function textChunk(keyword, text) {
    const data = new TextEncoder().encode(`${keyword}\0\0\0\0\0${text}`);  // flag, method, language, translated keyword
    const chunk = new Uint8Array(12 + data.length);
    const view = new DataView(chunk.buffer);
    view.setUint32(0, data.length);
    chunk.set(new TextEncoder().encode('iTXt'), 4);
    chunk.set(data, 8);
    view.setUint32(8 + data.length, crc32(chunk.subarray(4, 8 + data.length)));
    return chunk;
  }
  function withText(png, texts) {
    const afterHeader = 8 + 25;  // the signature, then IHDR (13 bytes of data)
    const chunks = Object.entries(texts).map(([keyword, text]) => textChunk(keyword, text));
    return new Blob([png.subarray(0, afterHeader), ...chunks, png.subarray(afterHeader)], { type: 'image/png' });
  }

  // The rows a figure shows: the tables of its text alternative, one after another.
  function tablesAsCsv(element) {
    const cell = (c) => {
      const text = c.textContent.trim().replace(/\s+/g, ' ');
      return /[",\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
    };
    return [...element.querySelectorAll('table')]
      .map((table) => [...table.rows].map((row) => [...row.cells].map(cell).join(',')).join('\n'))
      .join('\n\n') + '\n';
  }

  async function runTool(canvas, kind) {
    const name = canvas.dataset.figure;
    const title = canvas.getAttribute('aria-label') ?? name;
    const link = figureLink(canvas);
    if (kind === 'png') {
      const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
      if (!blob) throw new Error('the browser gave no image of the canvas');
      save(`lookback-${name}.png`, withText(new Uint8Array(await blob.arrayBuffer()), { Title: title, URL: link }));
      return `Saved lookback-${name}.png (${canvas.width} × ${canvas.height} pixels).`;
    }
    if (kind === 'json') {
      const data = { figure: name, title, link, state: window.lookback.state(name) };
      save(`lookback-${name}.json`, new Blob([JSON.stringify(data, null, 2)], { type: 'application/json' }));
      return `Saved lookback-${name}.json.`;
    }
    if (kind === 'csv') {
      const alternative = document.querySelector(`[data-figure-alt="${name}"]`);
      if (!alternative?.querySelector('table')) return 'This figure shows no table yet.';
      save(`lookback-${name}.csv`, new Blob([tablesAsCsv(alternative)], { type: 'text/csv' }));
      return `Saved lookback-${name}.csv.`;
    }
    await navigator.clipboard.writeText(link);
    if (leavesOutOwnPairs(canvas)) {
      return 'Link copied, without your own pairs (too large for a link, or forgotten from the address): it opens this ' +
        'figure as it is now, but on its default task. To pass the pairs on, use Save as a file in \u201cYour own pairs\u201d.';
    }
    return 'Link copied: it opens this figure as it is now.';
  }

  function wireToolbar(canvas, locked) {
    const toolbar = toolbarOf(canvas);
    if (!toolbar) return;
    const status = toolbar.querySelector('.figure-tools-status');
    for (const button of toolbar.querySelectorAll('button[data-export]')) {
      button.addEventListener('click', () => {
        status.textContent = '';
        runTool(canvas, button.dataset.export).then(
          (said) => { status.textContent = said; },
          (error) => {
            status.textContent = button.dataset.export === 'link'
              ? `The browser did not let the page copy; the link is ${figureLink(canvas)}`
              : `Could not save: ${error.message || error}`;
          });
      });
    }
    // The same link without lock=…: the teacher's settings, with every control working.
    const unlock = toolbar.querySelector('.figure-unlock');
    const unlocked = () => {
      const url = new URL(figureLink(canvas));
      url.searchParams.delete('lock');
      return url.href;
    };
    unlock.hidden = !locked;
    unlock.href = unlocked();
    unlock.addEventListener('click', () => { unlock.href = unlocked(); });
  }

  // Training runs in workers; what they say goes to the module's Lab (web/lab/runs.cpp).
  let module = null;
  const call = (name, types, args) => module && module.ccall(name, null, types, args);
  const runs = createTrainingClient({
    report: (run, json) => call('lb_run_report', ['number', 'string'], [run, json]),
    state: (run, state, message) => call('lb_run_state', ['number', 'string', 'string'], [run, state, message]),
    weights: (run, bytes) => {
      if (!module) return;
      const pointer = module._malloc(Math.max(1, bytes.length));
      module.HEAPU8.set(bytes, pointer);
      module._lb_run_weights(run, pointer, bytes.length);
      module._free(pointer);
    },
    evaluated: (id, json) => call('lb_shipped_evaluated', ['number', 'string'], [id, json]),
    mode: (text) => call('lb_training_note', ['string'], [text]),
  });

  // The figures, once the module is ready; each step is one function below.
  function start(started) {
    module = started;
    followColourScheme();
    // A task sent in the link, or kept from the last visit, joins the table before the figures
    // read the address, so a link that chooses it (tr.task=your-pairs) finds it.
    window.lookbackOwnPairs?.restore(pairsBridge());
    attachFigures([...document.querySelectorAll('canvas[data-figure]')]);
    const sizes = followSizes();
    const setOnScreen = keepContexts();
    startNearFigures(sizes, setOnScreen);
    document.addEventListener('visibilitychange', () => module._lb_set_page_visible(document.hidden ? 0 : 1));
    afterFirstFrames();
    window.lookbackOwnPairs?.connect();
    window.lookback = pageInterface();
  }

  const answer = (text) => JSON.parse(text);
  const indexOf = (canvas) => byIndex.indexOf(canvas);

  function followColourScheme() {
    const dark = matchMedia('(prefers-color-scheme: dark)');
    module._lb_set_dark(dark.matches ? 1 : 0);
    dark.addEventListener('change', (event) => module._lb_set_dark(event.matches ? 1 : 0));
  }

  function pairsBridge() {
    // The "Your own pairs" block (own_pairs.js) hands its text or file to the module (web/app.cpp's
    // lb_use_pairs) on the heap, not ccall's stack, cut one byte past the most the module reads
    // (lb_pairs_max_bytes, asked when first used): enough for the core to refuse at the line that
    // passes its limit, and a 20 MB file does not grow the module's memory by 20 MB.
    return {
      use(input, options) {
        const whole = typeof input === 'string' ? new TextEncoder().encode(input) : input;
        const bytes = whole.subarray(0, module._lb_pairs_max_bytes() + 1);
        const pointer = module._malloc(bytes.length + 1);
        if (!pointer) return { ok: false, message: 'The pairs took more memory than this page has.', line: 0 };
        try {
          module.HEAPU8.set(bytes, pointer);
          module.HEAPU8[pointer + bytes.length] = 0;
          return { ...answer(module.ccall('lb_use_pairs', 'string', ['number', 'number', 'string'],
            [pointer, bytes.length, JSON.stringify(options)])), cut: bytes.length < whole.length };
        } finally {
          module._free(pointer);
        }
      },
      // A task sent in the page's address (pairs.task=... in its fragment, or in an older link's
      // query), read by the module's URL table. On the heap too: an address may hold megabytes.
      useLink() {
        const texts = [location.search, location.hash.slice(1)].map((t) => new TextEncoder().encode(t));
        const pointers = texts.map((bytes) => module._malloc(bytes.length + 1));
        try {
          if (pointers.includes(0)) return { ok: false, message: 'The link took more memory than this page has.', line: 0 };
          texts.forEach((bytes, k) => {
            module.HEAPU8.set(bytes, pointers[k]);
            module.HEAPU8[pointers[k] + bytes.length] = 0;
          });
          return answer(module.UTF8ToString(module._lb_use_pairs_link(...pointers)));
        } finally {
          pointers.forEach((pointer) => module._free(pointer));
        }
      },
      // The name of the reader's task ("your-pairs"), as figures' keys name it in the address.
      taskName: module.ccall('lb_own_pairs_name', 'string', [], []),
      // Forget my pairs: the figures' choices of the task leave the address.
      forget: () => module._lb_pairs_forget(),
      file: () => module.ccall('lb_pairs_file', 'string', [], []),
      // Downloads the task file as `name`; its size in bytes, or 0 when there was none to save.
      save(name) {
        const task = this.file();
        if (task) save(name, new Blob([task], { type: 'application/json' }));
        return task.length;
      },
      link: () => answer(module.ccall('lb_pairs_link', 'string', [], [])),
      // A font of the site fetched for the task's characters (an answer's "fonts"), copied into
      // the module: {ok, message}.
      addFont(file, bytes) {
        const pointer = module._malloc(bytes.length);
        if (!pointer) return { ok: false, message: 'the font took more memory than this page has' };
        try {
          module.HEAPU8.set(bytes, pointer);
          return answer(module.ccall('lb_add_font', 'string', ['string', 'number', 'number'], [file, pointer, bytes.length]));
        } finally {
          module._free(pointer);
        }
      },
    };
  }

  // Each canvas becomes a figure of the module, with its mirror and toolbar.
  function attachFigures(canvases) {
    for (const canvas of canvases) {
      const name = canvas.dataset.figure;
      if (!canvas.id) canvas.id = `figure-${name}`;
      if (!canvas.hasAttribute('tabindex')) canvas.tabIndex = 0;  // keyboard input needs focus
      const index = module.ccall('lb_attach', 'number', ['string', 'string'], [name, `#${canvas.id}`]);
      if (index < 0) { canvas.dataset.figureFailed = ''; continue; }
      byIndex[index] = canvas;
      indexByName.set(name, index);
      // What the text alternative says without the module is no longer true: a reader who tabs
      // onto the canvas before the figure draws hears that it is starting.
      const waiting = document.querySelector(`[data-figure-alt="${name}"] [data-without-module]`);
      if (waiting) waiting.textContent = 'The figure is starting.';
      mirrors[index] = createFigureMirror(canvas, {
        act: (id, kind, value = 0, col = 0, text = '') => module.ccall('lb_act', null,
          ['number', 'string', 'string', 'number', 'number', 'string'], [index, id, kind, value, col, text]),
        focus: (id, row, col, first = -1) => module.ccall('lb_focus', null, ['number', 'string', 'number', 'number', 'number'],
          [index, id, row, col, first]),
      });
      wireToolbar(canvas, module._lb_locked(index) === 1);
    }
  }

  function followSizes() {
    // Size: CSS box -> backing store in device pixels. The device-pixel box is exact where the
    // browser reports it truthfully (emulated ratios report CSS pixels: then CSS × ratio).
    const lastBox = new Map();  // canvas -> [css width, css height, device width?, device height?]
    const resize = (canvas, cssWidth, cssHeight, deviceWidth, deviceHeight) => {
      lastBox.set(canvas, [cssWidth, cssHeight, deviceWidth, deviceHeight]);
      const ratio = window.devicePixelRatio || 1;
      const pick = (device, css) => (device !== undefined && Math.abs(device - css * ratio) < 1 ? device : devicePixels(css));
      const width = pick(deviceWidth, cssWidth), height = pick(deviceHeight, cssHeight);
      // Assigning a size clears the canvas even when it is unchanged: only on change.
      if (canvas.width !== width) canvas.width = width;
      if (canvas.height !== height) canvas.height = height;
      module._lb_resize(indexOf(canvas), cssWidth, cssHeight, ratio, width, height);
    };
    const resized = new ResizeObserver((entries) => {
      for (const entry of entries) {
        const css = entry.contentBoxSize[0];
        const device = entry.devicePixelContentBoxSize && entry.devicePixelContentBoxSize[0];
        resize(entry.target, css.inlineSize, css.blockSize, device?.inlineSize, device?.blockSize);
      }
    });
    // A new devicePixelRatio (zoom, another screen) rasterises the font again.
    const watchRatio = () => {
      matchMedia(`(resolution: ${window.devicePixelRatio}dppx)`).addEventListener('change', () => {
        for (const [canvas, box] of lastBox) resize(canvas, ...box);
        watchRatio();
      }, { once: true });
    };
    watchRatio();
    const observe = (canvas) => {
      try {
        resized.observe(canvas, { box: 'device-pixel-content-box' });
      } catch {
        resized.observe(canvas);  // browsers without device-pixel boxes
      }
    };
    return { resize, observe };
  }

  function keepContexts() {
    // A figure whose WebGL context the browser took away and does not give back asks for it again
    // when it is near the viewport, else Figure 1 stays blank in WebKit. WebKit keeps at
    // most 16 live WebGL contexts in a web process, counting this page's ten with those of any
    // other page or frame the process holds, and at the 17th takes the least recently drawn one
    // for good: Figure 1's, drawn first and then left alone. Its canvas goes blank and
    // webglcontextlost comes, but webglcontextrestored never does, whatever the page does with
    // the event. WEBGL_lose_context's restoreContext() brings it back (WebKitGTK 2.50: the engine
    // then takes the next least recently drawn, a figure away from the reader), and the module
    // rebuilds the figure's GL side on webglcontextrestored (web/runtime/input.cpp). The
    // extension is asked for while the context lives: a lost context gives none. A context lost
    // near the viewport is asked back after a second, so that a browser that restores its own
    // (a GPU reset in Chromium) does so first, and a context lost away from it when it comes near.
    const nearNow = new Set();    // the canvases the module was last told are near the viewport
    // A figure that trains the lesson's models: near it, the workers warm up (web/worker/engine.js).
    const trainingFigures = new Set(['training', 'sweep']);
    const kept = new Map();       // canvas -> { gl, restorer: its WEBGL_lose_context }
    const askBack = (canvas) => {
      const context = kept.get(canvas);
      if (context && nearNow.has(canvas) && context.gl.isContextLost()) context.restorer.restoreContext();
    };
    const setOnScreen = (canvas, on) => {
      if (on) nearNow.add(canvas);
      else nearNow.delete(canvas);
      module._lb_set_on_screen(indexOf(canvas), on ? 1 : 0);
      if (on && trainingFigures.has(canvas.dataset.figure)) runs.warm();
      if (!on || canvas.dataset.figureFailed !== undefined) return;
      if (kept.has(canvas)) return askBack(canvas);
      // The module made the canvas's context when the figure first came near: this is that one.
      const gl = canvas.getContext('webgl2');
      const restorer = gl?.getExtension('WEBGL_lose_context');
      if (!restorer) return;
      kept.set(canvas, { gl, restorer });
      canvas.addEventListener('webglcontextlost', () => setTimeout(() => askBack(canvas), 1000));
    };
    return setOnScreen;
  }

  function startNearFigures(sizes, setOnScreen) {
    // Near the viewport counts as on screen: a figure's contexts are made before it scrolls in.
    const margin = 200;  // CSS px above and below the viewport
    const onScreen = new IntersectionObserver((entries) => {
      for (const entry of entries) setOnScreen(entry.target, entry.isIntersecting);
    }, { rootMargin: `${margin}px 0px` });
    // The figures near the viewport start now and draw at once: start() runs only after a frame
    // has passed since DOMContentLoaded, so a link's target has been scrolled to. The observer
    // reports only after a frame is painted, and the GPU's work on that paint would delay their
    // WebGL contexts. Sections far away are not looked into: asking their canvases' boxes would
    // lay them out (content-visibility). All boxes first: a figure's first frame may set its
    // height, and the next box asked would lay the page out again.
    const near = (box) => box.bottom > -margin && box.top < innerHeight + margin && box.width > 0;
    const starting = byIndex.filter((canvas) => near((canvas.closest('section') ?? canvas).getBoundingClientRect()))
      .map((canvas) => [canvas, canvas.getBoundingClientRect()]).filter(([, box]) => near(box));
    for (const [canvas, box] of starting) {
      sizes.resize(canvas, box.width, box.height);
      setOnScreen(canvas, true);
    }
    for (const canvas of byIndex) {
      sizes.observe(canvas);
      onScreen.observe(canvas);
    }
  }

  function afterFirstFrames() {
    // What the page can wait for (the shipped models, the native sweep) after its first frames.
    const whenIdle = window.requestIdleCallback || ((work) => setTimeout(work, 200));
    whenIdle(() => {
      module._lb_page_idle();
      // Every file of the site, kept for reading offline: after the first figures, not before.
      if ('serviceWorker' in navigator && location.protocol !== 'file:') {
        navigator.serviceWorker.register('service_worker.js')
          .catch((error) => console.warn('lookback: the page will not be kept for offline reading:', error));
      }
    }, { timeout: 2000 });
  }

  // What the tests and benchmarks ask of the page (window.lookback).
  function pageInterface() {
    const figureIndex = (name) => {
      if (!indexByName.has(name)) throw new Error(`lookback: no figure named ${name}`);
      return indexByName.get(name);
    };
    return Object.freeze({
      // The names of the figures running on this page.
      figures: () => [...indexByName.keys()],
      // A figure's state as its C++ code describes it (a fresh copy each call).
      state: (name) => JSON.parse(module.ccall('lb_state', 'string', ['number'], [figureIndex(name)])),
      // A widget's rectangle in CSS pixels of the viewport, as drawn in the last frame, or null.
      rect: (name, widget) => {
        const index = figureIndex(name);
        const r = JSON.parse(module.ccall('lb_rect', 'string', ['number', 'string'], [index, widget]));
        if (!r) return null;
        const box = byIndex[index].getBoundingClientRect();
        return { x: box.left + r[0], y: box.top + r[1], width: r[2], height: r[3] };
      },
      // The figures' font atlas: {missing: the code points of `text` it has no glyph for, atlas:
      // [width, height], glyphs, build_ms, fonts: the site's fonts loaded}.
      fontReport: (text) => JSON.parse(module.ccall('lb_font_report', 'string', ['string'], [text])),
      // How many frames a figure has drawn.
      frames: (name) => module._lb_frames(figureIndex(name)),
      // Every figure's URL keys, by figure name.
      urlKeys: () => JSON.parse(module.ccall('lb_url_keys', 'string', [], [])),
      // The shipped models: {listed, models: [{file, label, loaded, error, checking}]}.
      shipped: () => JSON.parse(module.ccall('lb_shipped', 'string', [], [])),
      // How training is placed: {mode, size, workers, mainThreadSlices, evaluations,
      // workerWasmBytes}, and the page's own module's memory (pageWasmBytes).
      training: () => ({ ...runs.stats(), pageWasmBytes: module.HEAP8.length }),
      // For the mirror's benchmark: figures stop (false) or go on (true) describing their controls.
      describeControls: (on) => module._lb_describe_controls(on ? 1 : 0),
      // For tests: the next run's worker fails on purpose ('throw').
      failNextRun: (kind) => runs.failNext(kind),
    });
  }

  // Without the module no figure can draw: its canvases fold away (style.css), the text
  // alternatives beside them stay.
  const failed = (error) => {
    console.error('lookback: the figure module did not start:', error);
    const fold = () => document.querySelectorAll('canvas[data-figure]').forEach((c) => { c.dataset.figureFailed = ''; });
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', fold, { once: true });
    else fold();
  };
  const started = createLookbackModule({
    lookbackHost: host,
    lookbackRuns: runs,
    print: (text) => console.log(text),
    printErr: (text) => console.error(text),
  });
  // A deferred script runs after parsing but before DOMContentLoaded, and a link's target is
  // scrolled to right after that event: the figures start once the module is ready and an
  // animation frame has passed since. Waiting for a frame after the module instead cost ~0.1 s.
  // A fragment holding keys (#own-pairs&pairs.task=…) names no element: the page scrolls to its
  // anchor as the browser would to a plain one.
  const toAnchor = () => {
    const { anchor, keys } = fragment.read(location.hash);
    if (anchor && keys.toString()) document.getElementById(anchor)?.scrollIntoView();
  };
  const scrolled = document.readyState === 'complete'
    ? Promise.resolve(toAnchor())
    : new Promise((resolve) => document.addEventListener('DOMContentLoaded', () => {
      toAnchor();
      requestAnimationFrame(resolve);
    }, { once: true }));
  Promise.all([started, scrolled]).then(([ready]) => start(ready), failed);
})();

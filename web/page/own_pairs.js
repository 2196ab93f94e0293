// web/page/own_pairs.js — the "Your own pairs" block under Figure 3 (index.html;
// docs/own-pairs.md): a reader's pairs, pasted, opened from a file, dropped on the block or loaded
// from the site's example files (examples/, written by build_page.mjs), are handed to the page's
// module (lookback.js's pairs → web/app.cpp's lb_use_pairs), which makes the task, puts it in
// Figure 3 and the map check, or refuses naming the line. The status line says which, and a
// hidden status region says it to a screen reader; a refusal changes nothing. A file goes to the module as its bytes, so bytes that are not
// UTF-8 are refused by the core with their line, not mended here.
'use strict';
(() => {
  const block = document.getElementById('own-pairs');
  if (!block) return;
  const text = block.querySelector('#own-pairs-text');
  const status = block.querySelector('#own-pairs-status');
  const file = block.querySelector('#own-pairs-file');
  const use = block.querySelector('#own-pairs-use');
  const drop = block.querySelector('[data-own-pairs-drop]');
  const save = block.querySelector('#own-pairs-save');
  const share = block.querySelector('#own-pairs-link');
  const forget = block.querySelector('#own-pairs-forget');
  let pairs = null;     // the module's side (lookback.js): use, useLink, file, link, save, forget, taskName
  let running = false;  // the figures run: a task may be used now
  let waiting = null;   // what was asked before then
  // The last task used, kept in this browser for the next visit as a task file (never sent anywhere).
  const kept = 'lookback.own-pairs';
  // The page's address holds a task small enough for a link under this key, in its fragment
  // (lookback.js's lookbackFragment: "#own-pairs&pairs.task=…"), which is never sent to a server;
  // links made before held it in the query, and still open.
  const linkKey = 'pairs.task';
  const fragment = window.lookbackFragment;
  let usedHere = false;   // a task was used in this visit, not only restored from the browser's storage
  let forgotten = false;  // Forget my pairs, until a task is used again
  let usedTokens = null;  // the tokens of the task in use, or null
  const thousands = (n) => n.toLocaleString('en-US');
  const notCarried = 'This link chose the sender\'s own pairs, but did not carry them (they were too large for a link, ' +
    'or the link was cut)';
  const askForFile = 'ask the sender for the task file (Save as a file in \u201cYour own pairs\u201d) and open it here.';

  const tokens = () => block.querySelector('input[name="own-pairs-tokens"]:checked')?.value ?? 'characters';
  const setTokens = (value) => {
    const radio = block.querySelector(`input[name="own-pairs-tokens"][value="${value}"]`);
    if (radio) radio.checked = true;
  };
  // What the status line shows is also said through a hidden status region, a line each
  // (mirror.js's addStatusLine): rewritten alone, the line lost "Loading numbers.tsv…" in Firefox
  // before Orca read it.
  const said = block.querySelector('#own-pairs-said');
  const show = (message) => {
    status.textContent = message;
    addStatusLine(said, message);
  };
  const say = (message, refused) => {
    show(message);
    status.classList.toggle('is-refused', refused);
    block.dataset.ownPairs = refused ? 'refused' : 'used';
  };
  // The address as it must be: the pairs in its fragment while a figure names the reader's task
  // in it, or the task was used in this visit, and a link holds them; else none (and the module
  // leaves the figures' choice of the task out: url_setting.h). Never in its query, where links
  // made before put them.
  function fitAddress() {
    if (!pairs) return;
    const url = new URL(location.href);
    const named = [...url.searchParams.values()].includes(pairs.taskName);
    const link = (usedHere || named) && !forgotten ? pairs.link() : {};
    const { anchor, keys } = fragment.read(url.hash);
    if (link.value) keys.set(linkKey, link.value);
    else keys.delete(linkKey);
    if (url.searchParams.has(linkKey)) url.searchParams.delete(linkKey);
    url.hash = fragment.text(anchor, keys);
    if (url.href !== location.href) history.replaceState(history.state, '', url.href);
  }
  const keep = () => {
    save.hidden = share.hidden = forget.hidden = false;
    try {
      localStorage.setItem(kept, pairs.file());
      return '';
    } catch {
      return ' (Not kept for your next visit: this browser would not store them.)';
    }
  };
  // A task used now: its pairs shown as the module read them (a task file's), and the address
  // holding it when a link can, so that a reload or a copied link brings it back.
  const took = (answer, shown) => {
    if (answer.text) text.value = answer.text;
    else if (shown !== undefined) text.value = answer.cut ? '' : shown;
    if (answer.tokens) setTokens(answer.tokens);
    usedTokens = tokens();
    usedHere = true;
    forgotten = false;
    fitAddress();
    const large = pairs.link().value ? '' : ' They are too large for a link: to pass them on, Save as a file.';
    return large + keep();
  };

  // Once the status says what was used: the task's characters that the figures' font lacks. The
  // module names the site's fuller fonts that hold them, fetched now (only for such a task; the service worker keeps each once
  // fetched) and handed to it; characters no font has, and how right-to-left text and marks are
  // drawn (unshaped, in stored order), are said once. A font that cannot be had
  // is said, and nothing else changes. data-own-pairs-fonts: loading, then loaded or failed.
  let fontsAsked = 0;  // the last task's fetches; an older task's notes are not said
  async function fontsFor(answer) {
    const asked = ++fontsAsked;
    const notes = [answer.no_glyph, answer.drawing_note].filter(Boolean);
    block.dataset.ownPairsFonts = 'loading';
    let failed = false;
    for (const font of answer.fonts ?? []) {
      let taken;
      try {
        const response = await fetch(font);
        if (!response.ok) throw new Error(`the site answered ${response.status}`);
        taken = pairs.addFont(font, new Uint8Array(await response.arrayBuffer()));
        // Fetched past the service worker (a first visit): it is asked to keep the font too.
        if (taken.ok && 'serviceWorker' in navigator && !navigator.serviceWorker.controller) {
          navigator.serviceWorker.ready.then((registration) => registration.active?.postMessage({ keep: font }));
        }
      } catch (error) {
        taken = { ok: false, message: error instanceof TypeError ? 'the page is offline and had not kept it' : error.message || String(error) };
      }
      if (!taken.ok) {
        failed = true;
        notes.push(`The fuller font the figures need for some of these characters (${font}) could not be loaded: ` +
                   `${taken.message}. They show as \u25A1 in the figures; the text beside each figure has them.`);
      }
    }
    if (asked !== fontsAsked) return;
    block.dataset.ownPairsFonts = failed ? 'failed' : 'loaded';
    if (notes.length) show(`${status.textContent} ${notes.join(' ')}`);
  }

  // Pairs read as characters whose every line has spaces on both sides were most likely written
  // as words (letters spelled out, phonemes): said, with the way to take them so.
  const wordsHint = (textRead, made) => {
    if (made !== 'characters' || typeof textRead !== 'string') return '';
    const lines = textRead.split(/\r?\n/).filter((line) => line.trim()).slice(0, 1000);
    const spaced = lines.length > 0 && lines.every((line) => {
      const [input, output] = line.split('\t');
      return output !== undefined && input.trim().includes(' ') && output.trim().includes(' ');
    });
    return spaced ? ' Every line has spaces on both sides, and as characters each space is a token of its own: if the spaces ' +
      'separate words or symbols, choose Tokens: words and Use these pairs again.' : '';
  };
  // `input`: a string (the text area) or a Uint8Array (a file's bytes); `shown`: the text to put
  // in the text area once read (a file's), unless it was too large to read whole.
  function submit(input, label, shown) {
    if (!running) {
      waiting = [input, label, shown];
      show('Waiting for the figures to start\u2026');
      return;
    }
    let answer;
    try {
      answer = pairs.use(input, { tokens: tokens() });
    } catch (error) {  // the module failed: said, never thrown into the page
      answer = { ok: false, message: `The pairs could not be read: ${error.message || error}`, line: 0 };
    }
    if (!answer.ok) {
      if (shown !== undefined) text.value = answer.cut ? '' : shown;
      say(`${label}Refused, nothing changed: ${answer.message}`, true);
      return;
    }
    const note = took(answer, shown);
    const hint = wordsHint(typeof input === 'string' ? input : shown, usedTokens);
    say(`${label}${answer.message} Figure 3 now trains on them as \u201c${answer.task}\u201d: press Train.${note}${hint}`, false);
    fontsFor(answer);
  }

  use.addEventListener('click', () => submit(text.value, ''));
  // The tokens belong to the task as it was made: another choice waits for Use these pairs.
  for (const radio of block.querySelectorAll('input[name="own-pairs-tokens"]')) {
    radio.addEventListener('change', () => {
      if (usedTokens === null) return;
      say(usedTokens === tokens() ? `Tokens: ${usedTokens}, as the task in use was made.`
        : `Tokens: ${tokens()} from the next Use these pairs; until then Figure 3 trains on the task as it was made, in ${usedTokens}.`, false);
    });
  }

  async function takeFile(f) {
    if (!f) return;
    const bytes = new Uint8Array(await f.arrayBuffer());
    const size = bytes.length > 1048576 ? ` (${(bytes.length / 1048576).toFixed(1)} MB)` : '';
    // The module reads the bytes as they are; the text area shows them decoded, for editing.
    submit(bytes, `${f.name}${size}: `, new TextDecoder('utf-8').decode(bytes));
  }
  file.addEventListener('change', () => {
    takeFile(file.files[0]);
    file.value = '';  // the same file again is a change again
  });
  for (const target of [drop, text]) {
    target.addEventListener('dragover', (event) => {
      if ([...(event.dataTransfer?.types ?? [])].includes('Files')) {
        event.preventDefault();
        drop.classList.add('is-over');
      }
    });
    target.addEventListener('dragleave', () => drop.classList.remove('is-over'));
    target.addEventListener('drop', (event) => {
      const f = event.dataTransfer?.files?.[0];
      drop.classList.remove('is-over');
      if (!f) return;
      event.preventDefault();
      event.stopPropagation();
      takeFile(f);
    });
  }

  for (const button of block.querySelectorAll('[data-own-pairs-example]')) {
    button.addEventListener('click', async () => {
      const name = button.dataset.ownPairsExample;
      show(`Loading ${name}\u2026`);
      let loaded;
      try {
        const response = await fetch(`examples/${name}`);
        if (!response.ok) throw new Error(`the site answered ${response.status}`);
        loaded = await response.text();
      } catch (error) {
        say(`${name} could not be loaded: ${error.message || error}`, true);
        return;
      }
      setTokens(button.dataset.ownPairsTokens);  // each example button names its tokens
      submit(loaded, `${name}: `, loaded);
    });
  }

  save.addEventListener('click', () => {
    const name = 'your-pairs.lookback.json';
    const size = pairs.save(name);
    if (!size) {
      say('The pairs could not be saved: the page holds none, or too little memory was left.', true);
      return;
    }
    say(`Saved ${name} (${Math.ceil(size / 1024)} KB): open it here, in any copy of this page, or with \u201clookback train --task-file ${name}\u201d.`, false);
  });

  // A link for most tasks; for the largest, the refusal says why and offers the file.
  share.addEventListener('click', async () => {
    const made = pairs.link();
    if (!made.value) {
      say(made.refusal, true);
      return;
    }
    const url = new URL(location.href);
    url.searchParams.delete(linkKey);
    const { keys } = fragment.read(url.hash);
    keys.set(linkKey, made.value);
    url.hash = fragment.text('own-pairs', keys);
    const size = `${thousands(url.href.length)} characters`;
    const long = made.long ? ' Fine in a browser and in a chat that keeps whole links; some mail and chat programs cut links ' +
      'this long, so send the file where links are cut (Save as a file).' : '';
    try {
      await navigator.clipboard.writeText(url.href);
      say(`Copied a link that holds these pairs (${size}): whoever opens it trains on the same task.${long}`, false);
    } catch {
      say(`The browser did not let the page copy; the link (${size}) is ${url.href}${long}`, false);
    }
  });

  forget.addEventListener('click', () => {
    localStorage.removeItem(kept);
    forgotten = true;
    pairs.forget();  // the figures' choices of the task leave the address
    fitAddress();
    forget.hidden = true;
    say('Your pairs are no longer kept in this browser or in the address; the page still has them until you leave.', false);
  });

  window.lookbackOwnPairs = {
    // Before the figures read the address: a task in the link is used, and chosen in Figure 3 and
    // the map check; else the task kept from the last visit joins the task lists, chosen only
    // where the address asks for it. One the page no longer takes is forgotten, and it says why.
    restore(api) {
      pairs = api;
      addEventListener('hashchange', fitAddress);  // an anchor followed in the page: the pairs stay after it
      const linked = pairs.useLink();
      if (linked.ok) {
        const note = took(linked);
        say(`From the link: ${linked.message} Figure 3 trains on them as \u201c${linked.task}\u201d: press Train.${note}`, false);
        fontsFor(linked);
        return;
      }
      const refusal = linked.absent ? '' : `The link's pairs were refused: ${linked.message} `;
      // A link that chose the reader's task without carrying it (made before, or cut).
      const named = linked.absent && [...new URLSearchParams(location.search).values()].includes(pairs.taskName);
      let stored = null;
      try {
        stored = localStorage.getItem(kept);
      } catch { /* storage blocked: nothing to restore */ }
      if (stored === null) {
        if (refusal) say(refusal, true);
        else if (named) say(`${notCarried}: ${askForFile}`, true);
        fitAddress();
        return;
      }
      const answer = pairs.use(stored, { select: false });
      if (answer.ok) {
        text.value = answer.text;
        setTokens(answer.tokens);
        usedTokens = tokens();
        save.hidden = share.hidden = forget.hidden = false;
        if (named) {
          say(`${notCarried}, so the figures use your own from your last visit, which may not be the sender's: ${answer.message} ` +
              `For the sender's, ${askForFile}`, true);
        } else {
          say(`${refusal}Your pairs from your last visit: ${answer.message} They are \u201c${answer.task}\u201d in Figure 3's task list.`, !!refusal);
        }
        fontsFor(answer);
      } else {
        localStorage.removeItem(kept);
        say(`${refusal}Your pairs from your last visit were refused and forgotten: ${answer.message}`, true);
      }
      fitAddress();
    },
    fitAddress,
    connect() {
      running = true;
      if (waiting) submit(...waiting.splice(0));
      waiting = null;
    },
  };
})();

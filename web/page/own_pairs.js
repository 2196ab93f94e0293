// web/page/own_pairs.js — the "Your own pairs" block under Figure 3 (index.html;
// docs/own-pairs.md): a reader's pairs, pasted, opened from a file, dropped on the block or loaded
// from the site's example files (examples/, written by build_page.mjs), are handed to the page's
// module (lookback.js's pairs → web/app.cpp's lb_use_pairs), which makes the task, puts it in
// Figure 3 and the map check, or refuses naming the line. The status line (role=status) says
// which; a refusal changes nothing. A file goes to the module as its bytes, so bytes that are not
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
  let pairs = null;     // the module's side (lookback.js): use, useLink, file, link, save
  let running = false;  // the figures run: a task may be used now
  let waiting = null;   // what was asked before then
  // The last task used, kept in this browser for the next visit as a task file (never sent anywhere).
  const kept = 'lookback.own-pairs';
  const linkKey = 'pairs.task';  // the page's address holds a task small enough for a link

  const tokens = () => block.querySelector('input[name="own-pairs-tokens"]:checked')?.value ?? 'characters';
  const setTokens = (value) => {
    const radio = block.querySelector(`input[name="own-pairs-tokens"][value="${value}"]`);
    if (radio) radio.checked = true;
  };
  const say = (message, refused) => {
    status.textContent = message;
    status.classList.toggle('is-refused', refused);
    block.dataset.ownPairs = refused ? 'refused' : 'used';
  };
  const withAddress = (change) => {
    const url = new URL(location.href);
    change(url);
    history.replaceState(history.state, '', url.href);
  };
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
    const link = pairs.link();
    withAddress((url) => (link.value ? url.searchParams.set(linkKey, link.value) : url.searchParams.delete(linkKey)));
    return keep();
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
    if (notes.length) status.textContent += ` ${notes.join(' ')}`;
  }

  // `input`: a string (the text area) or a Uint8Array (a file's bytes); `shown`: the text to put
  // in the text area once read (a file's), unless it was too large to read whole.
  function submit(input, label, shown) {
    if (!running) {
      waiting = [input, label, shown];
      status.textContent = 'Waiting for the figures to start\u2026';
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
    say(`${label}${answer.message} Figure 3 now trains on them as \u201c${answer.task}\u201d: press Train.${note}`, false);
    fontsFor(answer);
  }

  use.addEventListener('click', () => submit(text.value, ''));

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
      status.textContent = `Loading ${name}\u2026`;
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

  share.addEventListener('click', async () => {
    const made = pairs.link();
    if (!made.value) {
      say(made.refusal, true);
      return;
    }
    const url = new URL(location.href);
    url.searchParams.set(linkKey, made.value);
    url.hash = 'own-pairs';
    const size = `${(made.value.length / 1024).toFixed(1)} KB`;
    try {
      await navigator.clipboard.writeText(url.href);
      say(`Copied a link that holds these pairs (${size}): whoever opens it trains on the same task.`, false);
    } catch {
      say(`The browser did not let the page copy; the link (${size}) is ${url.href}`, false);
    }
  });

  forget.addEventListener('click', () => {
    localStorage.removeItem(kept);
    withAddress((url) => url.searchParams.delete(linkKey));
    forget.hidden = true;
    say('Your pairs are no longer kept in this browser or in the address; the page still has them until you leave.', false);
  });

  window.lookbackOwnPairs = {
    // Before the figures read the address: a task in the link is used, and chosen in Figure 3 and
    // the map check; else the task kept from the last visit joins the task lists, chosen only
    // where the address asks for it. One the page no longer takes is forgotten, and it says why.
    restore(api) {
      pairs = api;
      const linked = pairs.useLink();
      if (linked.ok) {
        const note = took(linked);
        say(`From the link: ${linked.message} Figure 3 trains on them as \u201c${linked.task}\u201d: press Train.${note}`, false);
        fontsFor(linked);
        return;
      }
      const refusal = linked.absent ? '' : `The link's pairs were refused: ${linked.message} `;
      if (refusal) withAddress((url) => url.searchParams.delete(linkKey));
      let stored = null;
      try {
        stored = localStorage.getItem(kept);
      } catch { /* storage blocked: nothing to restore */ }
      if (stored === null) {
        if (refusal) say(refusal, true);
        return;
      }
      const answer = pairs.use(stored, { select: false });
      if (answer.ok) {
        text.value = answer.text;
        setTokens(answer.tokens);
        save.hidden = share.hidden = forget.hidden = false;
        say(`${refusal}Your pairs from your last visit: ${answer.message} They are \u201c${answer.task}\u201d in Figure 3's task list.`, !!refusal);
        fontsFor(answer);
      } else {
        localStorage.removeItem(kept);
        say(`${refusal}Your pairs from your last visit were refused and forgotten: ${answer.message}`, true);
      }
    },
    connect() {
      running = true;
      if (waiting) submit(...waiting.splice(0));
      waiting = null;
    },
  };
})();

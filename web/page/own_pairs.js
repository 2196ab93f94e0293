// web/page/own_pairs.js — the "Your own pairs" block under Figure 3 (index.html; issue 38,
// docs/own-pairs.md): a reader's pairs, pasted, opened from a file, dropped on the block or loaded
// from the site's example files (examples/, written by build_page.mjs), are handed to the page's
// module (lookback.js's usePairs → web/app.cpp's lb_use_pairs), which makes the task, puts it in
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
  const shownMax = 2 * 1024 * 1024;  // a file past the core's limit is not put in the text area
  let usePairs = null;               // lookback.js hands it over once the module runs
  let waiting = null;                // what was asked before then
  // The last pairs used, kept in this browser for the next visit (never sent anywhere).
  const kept = 'lookback.own-pairs';
  const forget = block.querySelector('#own-pairs-forget');
  const keep = (input) => {
    try {
      const pairs = typeof input === 'string' ? input : new TextDecoder('utf-8').decode(input);
      localStorage.setItem(kept, JSON.stringify({ text: pairs, tokens: tokens() }));
      forget.hidden = false;
      return '';
    } catch {
      return ' (Not kept for your next visit: this browser would not store them.)';
    }
  };

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

  // `input`: a string (the text area) or a Uint8Array (a file's bytes).
  function submit(input, label) {
    if (!usePairs) {
      waiting = [input, label];
      status.textContent = 'Waiting for the figures to start\u2026';
      return;
    }
    let answer;
    try {
      answer = usePairs(input, { tokens: tokens() });
    } catch (error) {  // the module failed: said, never thrown into the page
      answer = { ok: false, message: `The pairs could not be read: ${error.message || error}`, line: 0 };
    }
    if (answer.ok) say(`${label}${answer.message} Figure 3 now trains on them as \u201c${answer.task}\u201d: press Train.${keep(input)}`, false);
    else say(`${label}Refused, nothing changed: ${answer.message}`, true);
  }

  use.addEventListener('click', () => submit(text.value, ''));

  async function takeFile(f) {
    if (!f) return;
    const bytes = new Uint8Array(await f.arrayBuffer());
    // Shown for editing when it could be used; the module reads the bytes as they are.
    text.value = bytes.length <= shownMax ? new TextDecoder('utf-8').decode(bytes) : '';
    const size = bytes.length > shownMax ? ` (${(bytes.length / 1048576).toFixed(1)} MB)` : '';
    submit(bytes, `${f.name}${size}: `);
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
      try {
        const response = await fetch(`examples/${name}`);
        if (!response.ok) throw new Error(`the site answered ${response.status}`);
        text.value = await response.text();
      } catch (error) {
        say(`${name} could not be loaded: ${error.message || error}`, true);
        return;
      }
      setTokens('words');  // both examples are of words
      submit(text.value, `${name}: `);
    });
  }

  forget.addEventListener('click', () => {
    localStorage.removeItem(kept);
    forget.hidden = true;
    say('Your pairs are no longer kept in this browser; the page still has them until you leave.', false);
  });

  window.lookbackOwnPairs = {
    // Before the figures start: the pairs kept from the last visit join the task list, chosen only
    // where a link asks for them. Ones the page no longer takes are forgotten, and it says why.
    restore(fn) {
      let stored = null;
      try {
        stored = JSON.parse(localStorage.getItem(kept) ?? 'null');
      } catch { /* storage blocked or not ours: nothing to restore */ }
      if (!stored || typeof stored.text !== 'string') return;
      setTokens(stored.tokens === 'words' ? 'words' : 'characters');
      const answer = fn(stored.text, { tokens: tokens(), select: false });
      if (answer.ok) {
        text.value = stored.text;
        forget.hidden = false;
        say(`Your pairs from your last visit: ${answer.message} They are \u201c${answer.task}\u201d in Figure 3's task list.`, false);
      } else {
        localStorage.removeItem(kept);
        say(`Your pairs from your last visit were refused and forgotten: ${answer.message}`, true);
      }
    },
    connect(fn) {
      usePairs = fn;
      if (waiting) submit(...waiting.splice(0));
      waiting = null;
    },
  };
})();

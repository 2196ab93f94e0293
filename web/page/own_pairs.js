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
    if (answer.ok) say(`${label}${answer.message} Figure 3 now trains on them as \u201c${answer.task}\u201d: press Train.`, false);
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

  window.lookbackOwnPairs = {
    connect(fn) {
      usePairs = fn;
      if (waiting) submit(...waiting.splice(0));
      waiting = null;
    },
  };
})();

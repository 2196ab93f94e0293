// web/page/mirror.js — a figure's controls as real HTML elements, for the keyboard and for
// assistive technology. The figure describes its controls every frame it draws
// (web/runtime/controls.h: role, name, value, state, rectangle); this keeps one element for each,
// made, changed and removed as the description changes (nothing is touched when nothing did),
// placed over the control it stands for and visually hidden. Native elements where HTML has one
// (button, checkbox, radio, range, number, text field, table), so the browser gives them their
// keys; a choice among options is an ARIA combobox with its listbox (not a <select>: see make.combobox);
// an attention map is an ARIA grid with one tab stop and the arrow keys inside.
// What a reader does to an element goes back to the figure as an action (act), through the
// figure's input queue, as a click does; where the focus is goes back too (focus), so the figure
// draws its focus ring.
//
// A canvas with controls stops being an image: the mirror becomes the figure's labelled group
// and the canvas is hidden from the accessibility tree. A polite live region beside it says what
// the figure announces once (an epoch done, an output changed).
'use strict';

// Says `text` through the status region `region`: a line of its own added to it, never a text
// replaced. A text replaced was lost when it was replaced before Orca got to it (Firefox reports
// a line as a new child, which Orca reads only when it takes the event: "Training." replaced by
// the epoch 0.4 s later, or an epoch by "Done", was never said). The same words twice are two
// lines, said twice; the oldest lines go past `kept` (a removal is not spoken). The figures'
// regions and the own-pairs block's (own_pairs.js) use it.
function addStatusLine(region, text, kept = 8) {
  const line = document.createElement('p');
  line.textContent = text;
  region.append(line);
  while (region.childElementCount > kept) region.firstElementChild.remove();
}

// eslint-disable-next-line no-unused-vars
function createFigureMirror(canvas, { act, focus }) {
  const root = document.createElement('div');
  root.className = 'figure-mirror';
  root.setAttribute('role', 'group');
  root.tabIndex = -1;  // where the focus goes when the control it was on goes away
  root.hidden = true;
  canvas.before(root);
  const status = document.createElement('div');  // its lines are paragraphs: each its own object in the tree
  status.className = 'visually-hidden';
  status.setAttribute('role', 'status');
  canvas.after(status);

  const nodes = new Map();  // id -> { element, json (as last applied), node }
  const figureName = canvas.dataset.figure;
  let unique = 0;

  const place = (element, rect) => {
    const s = element.style;
    s.left = `${rect[0]}px`; s.top = `${rect[1]}px`; s.width = `${rect[2]}px`; s.height = `${rect[3]}px`;
  };
  const disabled = (node) => node.disabled === true;
  const setDisabled = (element, node) => {
    if (disabled(node)) element.setAttribute('aria-disabled', 'true');
    else element.removeAttribute('aria-disabled');
  };
  const entry = (element) => nodes.get(element.closest('[data-control]')?.dataset.control);
  // Typed into a number or text field and not yet taken: a description must not overwrite it.
  const editing = (element) => document.activeElement === element && element.dataset.dirty === '1';

  // --- one element per role --------------------------------------------------------------------
  const make = {
    button() {
      const b = document.createElement('button');
      b.type = 'button';
      b.addEventListener('click', () => { if (!disabled(entry(b).node)) act(entry(b).node.id, 'press'); });
      return b;
    },
    checkbox() {
      const c = document.createElement('input');
      c.type = 'checkbox';
      c.addEventListener('click', (event) => {
        const { node: now } = entry(c);
        if (disabled(now)) { event.preventDefault(); return; }
        act(now.id, 'press');
      });
      return c;
    },
    radiogroup(node) {
      const g = document.createElement('div');
      g.setAttribute('role', 'radiogroup');
      g.dataset.group = `${figureName}-${node.id}-${unique++}`;
      g.addEventListener('change', (event) => {
        const { node: now } = entry(g);
        const k = Number(event.target.dataset.option);
        if (disabled(now)) { g.querySelectorAll('input')[now.value].checked = true; return; }
        act(now.id, 'set', k);
      });
      return g;
    },
    slider() {
      const r = document.createElement('input');
      r.type = 'range';
      r.addEventListener('input', () => {
        const { node: now } = entry(r);
        if (disabled(now)) { r.value = now.value; return; }
        act(now.id, 'set', Number(r.value));
      });
      return r;
    },
    spinbutton() {
      const n = document.createElement('input');
      n.type = 'number';
      n.addEventListener('input', () => { n.dataset.dirty = '1'; });
      n.addEventListener('change', () => {
        n.dataset.dirty = '';
        const { node: now } = entry(n);
        if (disabled(now) || !Number.isFinite(n.valueAsNumber)) { n.value = now.value; return; }
        act(now.id, 'set', n.valueAsNumber);
      });
      return n;
    },
    // Not a <select>: Chromium sends a selection event for a select's chosen option when the
    // select enters its tree, and Orca said every select of a figure as it drew ("task combo box
    // collapsed dates"); and a select changed by its arrows said nothing in Chromium (the change
    // comes from the select's menu, not from the focused select, and Orca let it pass only on some
    // paths). An ARIA combobox (select-only) with its listbox made only while open sends neither:
    // the arrows choose at once, as a select's do, and open the listbox with the chosen option
    // active (aria-activedescendant), which both browsers say.
    combobox() {
      const c = document.createElement('div');
      c.setAttribute('role', 'combobox');
      c.tabIndex = 0;
      c.setAttribute('aria-haspopup', 'listbox');
      c.setAttribute('aria-expanded', 'false');
      c.append(document.createTextNode(''));  // the chosen option's text, changed in place (a new node lost Orca's place in Firefox)
      const list = document.createElement('div');
      list.setAttribute('role', 'listbox');
      list.className = 'figure-mirror-listbox';
      list.id = `${figureName}-listbox-${unique++}`;
      list.hidden = true;
      c.setAttribute('aria-controls', list.id);
      c.popup = list;
      c.addEventListener('keydown', (event) => comboKey(c, event));
      c.addEventListener('click', () => (c.getAttribute('aria-expanded') === 'true' ? closeCombo(c) : openCombo(c)));
      c.addEventListener('blur', () => closeCombo(c));
      list.addEventListener('mousedown', (event) => event.preventDefault());  // the focus stays on the combobox
      list.addEventListener('click', (event) => {
        const option = event.target.closest('[role="option"]');
        if (option) choose(c, Number(option.dataset.option));
        closeCombo(c);
      });
      return c;
    },
    textbox() {
      const t = document.createElement('input');
      t.type = 'text';
      t.autocomplete = 'off';
      t.spellcheck = false;
      t.addEventListener('input', () => {
        t.dataset.dirty = '1';
        if (!disabled(entry(t).node)) act(entry(t).node.id, 'text', 0, 0, t.value);
      });
      t.addEventListener('keydown', (event) => {
        if (event.key !== 'Enter') return;
        event.preventDefault();
        t.dataset.dirty = '';
        if (!disabled(entry(t).node)) act(entry(t).node.id, 'submit');
      });
      t.addEventListener('blur', () => { t.dataset.dirty = ''; });
      return t;
    },
    grid() {
      const g = document.createElement('div');
      g.setAttribute('role', 'grid');
      g.dataset.cells = `${figureName}-grid-${unique++}`;  // how its cells' ids start
      g.addEventListener('keydown', (event) => gridKey(g, event));
      g.addEventListener('click', (event) => {
        const cell = event.target.closest('[role="gridcell"]');
        if (cell) activate(g, cell);
      });
      return g;
    },
    progressbar() {
      const p = document.createElement('div');
      p.setAttribute('role', 'progressbar');
      return p;
    },
    table() {
      const box = document.createElement('div');
      box.className = 'figure-mirror-table';
      box.append(document.createElement('table'));
      box.addEventListener('click', (event) => {
        const button = event.target.closest('th button');
        if (button) act(entry(box).node.id, 'sort', Number(button.dataset.column));
      });
      return box;
    },
  };

  // --- bringing an element up to its description ----------------------------------------------
  const update = {
    button(b, node) {
      if (b.textContent !== node.name) b.textContent = node.name;
      if (node.pressed !== undefined) b.setAttribute('aria-pressed', String(node.pressed));
      else b.removeAttribute('aria-pressed');
      setDisabled(b, node);
      place(b, node.rect);
    },
    checkbox(c, node) {
      c.setAttribute('aria-label', node.name);
      c.checked = node.checked;
      setDisabled(c, node);
      place(c, node.rect);
    },
    radiogroup(g, node) {
      g.setAttribute('aria-label', node.name);
      setDisabled(g, node);
      const inputs = [...g.querySelectorAll('input')];
      if (inputs.length !== node.options.length || inputs.some((r, k) => r.getAttribute('aria-label') !== node.options[k])) {
        g.replaceChildren(...node.options.map((option, k) => {
          const r = document.createElement('input');
          r.type = 'radio';
          r.name = g.dataset.group;
          r.dataset.option = String(k);
          r.setAttribute('aria-label', option);
          return r;
        }));
      }
      g.querySelectorAll('input').forEach((r, k) => {
        r.checked = k === node.value;
        setDisabled(r, node);
        place(r, node.option_rects[k]);
      });
    },
    slider(r, node) {
      r.setAttribute('aria-label', node.name);
      r.min = node.min; r.max = node.max; r.step = node.step;
      r.value = node.value;
      if (node.valuetext) r.setAttribute('aria-valuetext', node.valuetext);
      setDisabled(r, node);
      place(r, node.rect);
    },
    progressbar(p, node) {
      p.setAttribute('aria-label', node.name);
      p.setAttribute('aria-valuemin', node.min);
      p.setAttribute('aria-valuemax', node.max);
      p.setAttribute('aria-valuenow', node.value);
      p.setAttribute('aria-valuetext', node.valuetext);
      place(p, node.rect);
    },
    spinbutton(n, node) {
      n.setAttribute('aria-label', node.name);
      n.min = node.min; n.max = node.max; n.step = node.step;
      if (!editing(n)) n.value = node.value;
      setDisabled(n, node);
      place(n, node.rect);
    },
    combobox(c, node) {
      c.setAttribute('aria-label', node.name);
      const list = c.popup;
      list.setAttribute('aria-label', node.name);
      const options = [...list.children];
      if (options.length !== node.options.length || options.some((o, k) => o.textContent !== node.options[k])) {
        list.replaceChildren(...node.options.map((text, k) => {
          const o = document.createElement('div');
          o.setAttribute('role', 'option');
          o.id = `${list.id}-${k}`;
          o.dataset.option = String(k);
          o.textContent = text;
          return o;
        }));
      }
      showChosen(c, node.value);
      setDisabled(c, node);
      place(c, node.rect);
      const [x, y, w, h] = node.rect;
      place(list, [x, y + h, w, h * node.options.length]);
    },
    textbox(t, node) {
      t.setAttribute('aria-label', node.name);
      if (!editing(t) && t.value !== node.text) t.value = node.text;
      setDisabled(t, node);
      place(t, node.rect);
    },
    grid(g, node) {
      g.setAttribute('aria-label', node.name);
      if (node.description) g.setAttribute('aria-description', node.description);
      else g.removeAttribute('aria-description');
      g.setAttribute('aria-rowcount', node.rows);
      g.setAttribute('aria-colcount', node.cols);
      setDisabled(g, node);
      place(g, node.rect);
      let rows = [...g.children];
      if (rows.length !== node.rows || (rows[0]?.children.length ?? 0) !== node.cols) {
        g.replaceChildren(...Array.from({ length: node.rows }, (_, r) => {
          const row = document.createElement('div');
          row.setAttribute('role', 'row');
          row.setAttribute('aria-rowindex', r + 1);
          row.append(...Array.from({ length: node.cols }, (__, c) => {
            const cell = document.createElement('div');
            cell.setAttribute('role', 'gridcell');
            cell.setAttribute('aria-colindex', c + 1);
            cell.tabIndex = -1;
            cell.id = `${g.dataset.cells}-${r}-${c}`;
            cell.dataset.row = r; cell.dataset.col = c;
            return cell;
          }));
          return row;
        }));
        rows = [...g.children];
      }
      const [w, h] = node.cell;
      rows.forEach((row, r) => {
        [...row.children].forEach((cell, c) => {
          const name = node.names[r * node.cols + c];
          if (cell.getAttribute('aria-label') !== name) cell.setAttribute('aria-label', name);
          place(cell, [c * w, r * h, w, h]);
          cell.setAttribute('aria-selected', String(r === node.selected_row));
        });
      });
      markSpan(g);
      // One tab stop: the cell last focused, or the selected row's first.
      if (!g.querySelector('[role="gridcell"][tabindex="0"]')) {
        const r = Math.max(0, node.selected_row ?? 0);
        g.children[Math.min(r, node.rows - 1)].children[0].tabIndex = 0;
      }
      nameStopRow(g);
    },
    table(box, node) {
      box.querySelector('table').setAttribute('aria-label', node.name);
      place(box, node.rect);
      const table = box.querySelector('table');
      const head = node.header.map((text, k) => {
        const th = document.createElement('th');
        th.scope = 'col';
        if (node.sortable) {
          const b = document.createElement('button');
          b.type = 'button';
          b.dataset.column = k;
          b.textContent = text;
          // Over the header cell the figure drew, where it knows it (the table's own layout is not the canvas's).
          const at = node.header_rects?.[k];
          if (at) {
            b.style.position = 'absolute';
            place(b, [at[0] - node.rect[0], at[1] - node.rect[1], at[2], at[3]]);
          }
          th.append(b);
          th.setAttribute('aria-sort', k === node.sort_column ? (node.descending ? 'descending' : 'ascending') : 'none');
        } else th.textContent = text;
        return th;
      });
      const focusedColumn = box.contains(document.activeElement) ? document.activeElement.dataset.column : undefined;
      const thead = document.createElement('thead');
      thead.append(document.createElement('tr'));
      thead.firstChild.append(...head);
      const tbody = document.createElement('tbody');
      for (const cells of node.rows) {
        const tr = document.createElement('tr');
        tr.append(...cells.map((text) => { const td = document.createElement('td'); td.textContent = text; return td; }));
        tbody.append(tr);
      }
      table.replaceChildren(thead, tbody);
      if (focusedColumn !== undefined) table.querySelector(`th button[data-column="${focusedColumn}"]`)?.focus({ preventScroll: true });
    },
  };

  // --- a combobox's keys and its listbox ----------------------------------------------------------
  // What the combobox shows: option k chosen (its text, aria-selected) and, while open, active.
  function showChosen(c, k) {
    c.dataset.value = String(k);
    const text = c.popup.children[k]?.textContent ?? '';
    if (c.firstChild.data !== text) c.firstChild.data = text;
    [...c.popup.children].forEach((o, j) => {
      if (o.getAttribute('aria-selected') !== String(j === k)) o.setAttribute('aria-selected', String(j === k));
    });
    if (c.getAttribute('aria-expanded') === 'true' && c.popup.children[k]) c.setAttribute('aria-activedescendant', c.popup.children[k].id);
  }
  // The option shown: the reader's last choice until the figure's description confirms it (two
  // arrows before the figure's next frame move two options, as in a select).
  function chosen(c) { return Number(c.dataset.value); }
  function openCombo(c) {
    if (c.getAttribute('aria-expanded') === 'true' || !c.isConnected) return;
    c.popup.hidden = false;
    c.setAttribute('aria-expanded', 'true');
    showChosen(c, chosen(c));
  }
  // Closed at once, its listbox gone from the tree at the reader's next key or click: the option
  // last active is where Orca's focus is, and with it destroyed before Orca took the next focus
  // (Tab out of the combobox), Orca lost its place and said nothing of the control it reached.
  function closeCombo(c) {
    if (c.getAttribute('aria-expanded') !== 'true') return;
    c.setAttribute('aria-expanded', 'false');
    c.removeAttribute('aria-activedescendant');
    const hide = () => {
      document.removeEventListener('keydown', hide, true);
      document.removeEventListener('pointerdown', hide, true);
      if (c.getAttribute('aria-expanded') !== 'true') c.popup.hidden = true;
    };
    document.addEventListener('keydown', hide, true);
    document.addEventListener('pointerdown', hide, true);
  }
  // Option k chosen by the reader: shown at once (the figure confirms it in its next description)
  // and sent to the figure; a disabled combobox keeps its value.
  function choose(c, k) {
    const { node } = entry(c);
    const count = c.popup.children.length;
    if (!count || disabled(node)) return;
    k = Math.max(0, Math.min(count - 1, k));
    openCombo(c);
    const before = chosen(c);
    showChosen(c, k);
    if (k !== before) act(node.id, 'set', k);
  }
  function comboKey(c, event) {
    const open = c.getAttribute('aria-expanded') === 'true';
    const k = chosen(c), count = c.popup.children.length;
    if (event.altKey && event.key === 'ArrowDown') openCombo(c);
    else if (event.altKey && event.key === 'ArrowUp') closeCombo(c);
    else if (event.key === 'ArrowDown' || event.key === 'ArrowUp') choose(c, k + (event.key === 'ArrowDown' ? 1 : -1));
    else if (event.key === 'Home' || event.key === 'PageUp') choose(c, 0);
    else if (event.key === 'End' || event.key === 'PageDown') choose(c, count - 1);
    else if (event.key === 'Enter' || event.key === ' ') { if (open) closeCombo(c); else openCombo(c); }
    else if (event.key === 'Escape' && open) closeCombo(c);
    else if (event.key.length === 1 && !event.ctrlKey && !event.metaKey && !event.altKey) {
      // The next option that starts with the letter typed, as a select does.
      const texts = [...c.popup.children].map((o) => o.textContent.toLowerCase());
      const next = [...texts.keys()].map((j) => (k + 1 + j) % count).find((j) => texts[j].startsWith(event.key.toLowerCase()));
      if (next === undefined) return;
      choose(c, next);
    } else return;
    event.preventDefault();
  }

  // --- a grid's keys --------------------------------------------------------------------------
  function cellAt(g, r, c) { return g.children[r]?.children[c]; }
  function moveTo(g, cell) {
    if (!cell) return;
    g.querySelectorAll('[role="gridcell"][tabindex="0"]').forEach((other) => { other.tabIndex = -1; });
    cell.tabIndex = 0;
    nameStopRow(g);
    cell.focus();
  }
  // Orca, in browse mode, says the whole row of a table cell that the focus enters: the row's name
  // if it has one, else every cell of it. Entering a map by Tab, Chromium read all 24 cells of the
  // row, and Firefox (which names a row from its content, a name Orca does not say) none, not even
  // the focused one. So the row of the grid's one tab stop is named by that cell (aria-labelledby),
  // and Tab into the grid says the cell it lands on; in the grid the arrows say one cell each.
  function nameStopRow(g) {
    const cell = g.querySelector('[role="gridcell"][tabindex="0"]');
    for (const row of g.querySelectorAll('[role="row"][aria-labelledby]')) {
      if (row !== cell?.parentElement) row.removeAttribute('aria-labelledby');
    }
    if (cell && cell.parentElement.getAttribute('aria-labelledby') !== cell.id) cell.parentElement.setAttribute('aria-labelledby', cell.id);
  }
  function activate(g, cell) {
    const { node } = entry(g);
    const anchor = g.dataset.anchor ?? '';
    endSpan(g);
    const r = Number(cell.dataset.row), c = Number(cell.dataset.col);
    if (anchor !== '') focus(node.id, r, c, -1);  // the ring back to the one cell
    if (!disabled(node)) act(node.id, 'activate', r, c, anchor);
  }
  // A span of a row being chosen (a grid that takes spans): from the anchor, where Shift+arrow
  // started, to the focused cell; its cells are aria-selected, and the figure rings them all.
  function markSpan(g) {
    const anchor = g.dataset.anchor;
    const cell = g.querySelector('[role="gridcell"][tabindex="0"]');
    if (anchor === undefined || !cell) return;
    const c = Number(cell.dataset.col), lo = Math.min(c, Number(anchor)), hi = Math.max(c, Number(anchor));
    [...cell.parentElement.children].forEach((other, k) => other.setAttribute('aria-selected', String(k >= lo && k <= hi)));
  }
  function endSpan(g) {
    if (g.dataset.anchor === undefined) return;
    delete g.dataset.anchor;
    g.querySelectorAll('[role="gridcell"]').forEach((cell) => cell.setAttribute('aria-selected', 'false'));
  }
  function gridKey(g, event) {
    const cell = event.target.closest('[role="gridcell"]');
    if (!cell) return;
    const r = Number(cell.dataset.row), c = Number(cell.dataset.col);
    const rows = g.children.length, cols = g.children[0].children.length;
    const ctrl = event.ctrlKey || event.metaKey;
    if (entry(g).node.span && event.shiftKey && (event.key === 'ArrowLeft' || event.key === 'ArrowRight')) {
      event.preventDefault();
      g.dataset.anchor ??= String(c);
      moveTo(g, cellAt(g, r, Math.max(0, Math.min(cols - 1, c + (event.key === 'ArrowLeft' ? -1 : 1)))));
      markSpan(g);
      return;
    }
    if (event.key === 'Escape') endSpan(g);
    else if (event.key !== 'Enter' && event.key !== ' ' && event.key !== 'Shift') endSpan(g);
    const to = {
      ArrowLeft: [r, c - 1], ArrowRight: [r, c + 1], ArrowUp: [r - 1, c], ArrowDown: [r + 1, c],
      Home: ctrl ? [0, 0] : [r, 0], End: ctrl ? [rows - 1, cols - 1] : [r, cols - 1],
      PageUp: [0, c], PageDown: [rows - 1, c],
    }[event.key];
    if (to) {
      event.preventDefault();
      moveTo(g, cellAt(g, Math.max(0, Math.min(rows - 1, to[0])), Math.max(0, Math.min(cols - 1, to[1]))));
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      activate(g, cell);
    }
  }

  // --- focus: the figure draws the ring where the page's focus is ---------------------------------
  root.addEventListener('focusin', (event) => {
    const e = entry(event.target);
    if (!e) return;
    const t = event.target;
    const row = t.dataset.row !== undefined ? Number(t.dataset.row) : t.dataset.option !== undefined ? Number(t.dataset.option) : -1;
    // A grid's cell by its column; a table's header button by its column too.
    const col = t.dataset.col ?? t.dataset.column;
    const anchor = t.closest('[role="grid"]')?.dataset.anchor;
    focus(e.node.id, row, col !== undefined ? Number(col) : -1, anchor !== undefined ? Number(anchor) : -1);
  });
  root.addEventListener('focusout', (event) => {
    const grid = event.target.closest?.('[role="grid"]');
    if (grid && !grid.contains(event.relatedTarget)) endSpan(grid);
    if (!root.contains(event.relatedTarget)) focus('', -1, -1);
  });

  // --- the description of one frame -----------------------------------------------------------
  function setControls(json, busy) {
    const list = JSON.parse(json);
    const seen = new Set();
    let previous = null;
    for (const node of list) {
      seen.add(node.id);
      let e = nodes.get(node.id);
      const text = JSON.stringify(node);
      if (e && e.node.role !== node.role) { remove(node.id); e = undefined; }
      if (!e) {
        const element = make[node.role](node);
        element.dataset.control = node.id;
        element.classList.add('figure-mirror-control');
        e = { element, text: '', node };
        nodes.set(node.id, e);
      }
      if (e.text !== text) {
        e.node = node;
        e.text = text;
        update[node.role](e.element, node);
      }
      // Reading order: the order the figure drew them in.
      const wanted = previous ? previous.nextSibling : root.firstChild;
      if (e.element !== wanted) root.insertBefore(e.element, wanted);
      previous = e.element;
      // A combobox's listbox right after it.
      if (e.element.popup) {
        if (previous.nextSibling !== e.element.popup) previous.after(e.element.popup);
        previous = e.element.popup;
      }
    }
    for (const id of [...nodes.keys()]) if (!seen.has(id)) remove(id);
    const has = list.length > 0;
    if (root.hidden === has) {
      root.hidden = !has;
      // With controls the figure is a group of them, named as the canvas was; without, a picture.
      if (has) {
        root.setAttribute('aria-label', canvas.getAttribute('aria-label') ?? figureName);
        const described = canvas.getAttribute('aria-describedby');  // the figure's text alternative
        if (described) root.setAttribute('aria-describedby', described);
        // A figure draws once it nears the viewport: Tab may have landed on its canvas before it
        // had controls. The keyboard goes on to the first of them (a click's focus stays), and
        // the canvas leaves the accessibility tree only at the reader's next move: Chromium sends
        // a frame's changes to the tree before its focus event, so the canvas removed in the same
        // frame (or two later, on a loaded machine) reached Orca first, and Orca, its focus
        // destroyed, took the new one without a word.
        canvas.tabIndex = -1;
        const hide = () => { if (!root.hidden) canvas.setAttribute('aria-hidden', 'true'); };
        if (document.activeElement === canvas && canvas.matches(':focus-visible')) {
          root.querySelector('.figure-mirror-control:not([role="radiogroup"]):not([role="grid"]), input, [role="gridcell"][tabindex="0"]')?.focus();
          document.addEventListener('focusin', hide, { once: true });
        } else {
          hide();
        }
      } else {
        canvas.removeAttribute('aria-hidden');
        canvas.tabIndex = 0;
      }
    }
    if (busy) root.setAttribute('aria-busy', 'true');
    else root.removeAttribute('aria-busy');
  }
  function remove(id) {
    const { element } = nodes.get(id);
    const hadFocus = element.contains(document.activeElement);
    element.remove();
    element.popup?.remove();
    nodes.delete(id);
    if (hadFocus) root.focus({ preventScroll: true });
  }

  // Said once, each announcement a line of its own (addStatusLine). What a frame announces
  // together (an epoch and the end of training) is one line.
  let pending = null;
  function announce(text) {
    if (pending !== null) {
      pending += `${/[.!?]$/.test(pending) ? '' : '.'} ${text}`;
      return;
    }
    pending = text;
    setTimeout(() => {
      addStatusLine(status, pending);
      pending = null;
    }, 50);
  }

  return { setControls, announce, root };
}

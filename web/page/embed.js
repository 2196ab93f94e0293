// web/page/embed.js — embed.html shows one figure of the article alone, for an iframe in a course
// page: embed.html?figure=NAME, with that figure's own settings from the same URL table as the
// article (al.date=…, tr.width=…) and lock=1 if its controls should not respond. build_page.mjs
// put each figure of index.html in a <template data-embed="NAME">: this stamps the one named into
// the page before lookback.js attaches the canvases, or says which names there are.
'use strict';
(() => {
  const templates = new Map([...document.querySelectorAll('template[data-embed]')].map((t) => [t.dataset.embed, t]));
  const asked = new URLSearchParams(location.search).get('figure');
  const template = templates.get(asked);
  if (template) {
    const figure = template.content.firstElementChild.cloneNode(true);
    template.before(figure);
    const title = figure.querySelector('figcaption b')?.textContent.replace(/\.$/, '') ?? asked;
    document.title = `${title} · Lookback`;
    document.querySelector('.embed-title').textContent = document.title;
    // The same figure in the article, with the same settings.
    const source = document.querySelector('.embed-source a');
    const query = new URLSearchParams(location.search);
    query.delete('figure');
    const settings = query.toString();
    source.href = `index.html${settings ? `?${settings}` : ''}#${figure.id}`;
    return;
  }
  // A name shown as typed, but safely: quoted with its control characters escaped, and cut.
  const shown = (text) => JSON.stringify(text.length > 40 ? `${text.slice(0, 40)}…` : text);
  const refusal = document.querySelector('.embed-refusal');
  refusal.querySelector('.embed-asked').textContent = asked === null
    ? 'This page shows one figure of Lookback, named in its link by figure=NAME.'
    : `The link's figure=${shown(asked)} names no figure of Lookback, so none is shown.`;
  refusal.hidden = false;
})();

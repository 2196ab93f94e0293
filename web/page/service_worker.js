// web/page/service_worker.js — keeps the whole site in the browser, so that a page opened once
// loads and trains with the network off. build_page.mjs writes it into the site (offline.mjs)
// after two constants: siteVersion, a hash of every other file of the site, and siteFiles, their
// paths. A new build has a new version, so the browser installs this worker again: it fills a
// cache of its own, takes over, and drops the caches of older builds.
const cacheName = `lookback-${siteVersion}`;

self.addEventListener('install', (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(cacheName);
    // From the server, past the HTTP cache: every file of this build, none of an older one.
    await cache.addAll(siteFiles.map((file) => new Request(file, { cache: 'reload' })));
    // A page open during the update has loaded its modules already; what it fetches later (the
    // shipped weights, the sweeps) is data that any build reads.
    await self.skipWaiting();
  })());
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith('lookback-') && name !== cacheName) await caches.delete(name);
    }
  })());
});

// The site's own files come from the cache. A page's settings are in its query, which names no
// other file: the query is ignored, and a folder means its index.html.
self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== self.location.origin) return;
  const path = url.pathname.endsWith('/') ? `${url.pathname}index.html` : url.pathname;
  event.respondWith((async () => {
    const cached = await (await caches.open(cacheName)).match(path);
    return cached ?? fetch(event.request);
  })());
});

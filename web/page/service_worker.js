// web/page/service_worker.js — keeps the whole site in the browser, so that a page opened once
// loads and trains with the network off. build_page.mjs writes it into the site (offline.mjs)
// after three constants: siteVersion, a hash of every other file of the site; siteFiles, their
// paths, kept at install; onDemandFiles, the fonts for a reader's task, each kept once the page
// fetched it. A new build has a new version, so the browser installs this worker again: it fills
// a cache of its own, takes over, and drops the caches of older builds.
const cacheName = `lookback-${siteVersion}`;
// The files kept once fetched (onDemandFiles: the fonts for a reader's task) have a cache of their
// own, keyed by path and content hash: a font fetched under an older build stays while it is the same.
const onDemandCache = 'lookback-on-demand';
const onDemandKey = (file) => new URL(`${file}?${onDemandFiles[file]}`, self.registration.scope).href;
async function onDemand(file, request) {
  const cache = await caches.open(onDemandCache);
  const cached = await cache.match(onDemandKey(file));
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) await cache.put(onDemandKey(file), response.clone());
  return response;
}

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
      if (name.startsWith('lookback-') && name !== cacheName && name !== onDemandCache) await caches.delete(name);
    }
    if (await caches.has(onDemandCache)) {
      const cache = await caches.open(onDemandCache);
      const current = new Set(Object.keys(onDemandFiles).map(onDemandKey));
      for (const request of await cache.keys()) if (!current.has(request.url)) await cache.delete(request);
    }
  })());
});

// What a file of the site answers when neither the cache nor the network has it: a refusal the
// page shows where the file was wanted, instead of a failed fetch. (A page reloaded while such a
// file still streams to it has Firefox log 'A ServiceWorker intercepted the request and
// encountered an unexpected error' for the page that goes: nothing is lost, the new page asks again.)
const notKept = (file) => new Response(`${file} is not kept for reading offline, and the network did not answer`,
  { status: 503, statusText: 'Offline', headers: { 'Content-Type': 'text/plain; charset=utf-8' } });

// The site's own files come from the cache. A page's settings are in its query, which names no
// other file: the query is ignored, and a folder means its index.html.
self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== 'GET' || url.origin !== self.location.origin) return;
  const path = url.pathname.endsWith('/') ? `${url.pathname}index.html` : url.pathname;
  const file = path.slice(new URL(self.registration.scope).pathname.length);
  if (Object.hasOwn(onDemandFiles, file)) {
    event.respondWith(onDemand(file, event.request));
    return;
  }
  event.respondWith((async () => {
    const cached = await (await caches.open(cacheName)).match(path);
    return cached ?? fetch(event.request).catch(() => notKept(file));
  })());
});

// A page not yet served by this worker when it fetched an on-demand file (its first visit) asks
// for it to be kept: {keep: path}.
self.addEventListener('message', (event) => {
  const file = event.data?.keep;
  if (typeof file === 'string' && Object.hasOwn(onDemandFiles, file)) {
    event.waitUntil(onDemand(file, new Request(file)));
  }
});

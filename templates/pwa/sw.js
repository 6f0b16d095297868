// The service worker (cubiccards/pwa.py): static files from a cache, pages from the network,
// and the offline page when a page can't be reached. Pages are never cached: they carry
// someone's table, name and Kudos.
const CACHE = "cubic-static-{{ version }}";
const FILES = {{ files|safe }};
const STATIC = {{ static_url|safe }};
const OFFLINE = {{ offline|safe }};

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("cubic-") && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(() => caches.match(OFFLINE)));
    return;
  }
  if (!url.pathname.startsWith(STATIC) && url.pathname !== "/icon.svg") return;
  // A static file: the cached copy at once, refreshed from the network for next time.
  event.respondWith(caches.open(CACHE).then((cache) => cache.match(request).then((hit) => {
    const fresh = fetch(request).then((response) => {
      if (response.ok) cache.put(request, response.clone());
      return response;
    });
    if (!hit) return fresh;
    event.waitUntil(fresh.catch(() => undefined));
    return hit;
  })));
});

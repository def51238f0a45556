// Meja's service worker: it keeps the page shell (the HTML, scripts, style sheets and icons
// the server lists below) so that an installed Meja opens from a phone's home screen, full
// screen, at once. It keeps nothing else: never the websocket (/ws: every table's data
// travels there, and a service worker never sees it), never a QR code, /healthz or
// /metrics, never a response it was not asked to keep. The server writes the list and the
// version (a hash of the listed files) into this file as it serves it (meja.server.pwa), so
// a new version of the page is a new cache, and the old one is deleted: an update is never
// stuck behind a cached page.

const VERSION = "__MEJA_VERSION__";
const SHELL = __MEJA_SHELL__;
const PREFIX = "meja-shell-";
const CACHE = PREFIX + VERSION;

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL.map((path) => new Request(path, { cache: "no-cache" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((names) => Promise.all(names.filter((n) => n.startsWith(PREFIX) && n !== CACHE).map((n) => caches.delete(n))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    // A page (/, /tv/CODE, /play?deal=...): the network first, so that the server routes it;
    // offline, the shell, which says it cannot connect.
    event.respondWith(fetch(request).catch(() => caches.match("/", { cacheName: CACHE })));
    return;
  }
  if (!SHELL.includes(url.pathname) || url.search) return; // not the shell's: the network's alone
  event.respondWith(caches.match(url.pathname, { cacheName: CACHE }).then((hit) => hit || fetch(request)));
});

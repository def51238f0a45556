// @ts-check
// The installable page: the web app manifest (linked from index.html) lets a phone put Meja
// on its home screen and open it full screen; the service worker (/sw.js, served by the
// server with its list of the shell's files) keeps the page shell so that it opens at once.
// Table data never passes through it: it travels on the websocket, which a service worker
// does not see. Browsers allow a service worker only on a secure origin (HTTPS, or this
// machine): elsewhere the page works the same, without one.

export function registerWorker() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  const register = () => navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => {});
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
}

// Stack Lab offline (put last in every document's <body> by
// scripts/offline.py): a second after the page has loaded, once the main
// thread is idle, imports scripts/offline.js, which registers the service
// worker; a demo's start (its modules, its first frame) never shares the
// network or the main thread with it. Until then the home page's
// `window.stackLabOffline` waits for it. A browser without service workers,
// or a page not in a secure context, gets none, and the home page says so.
(() => {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  const idle = window.requestIdleCallback ?? ((then) => setTimeout(then, 0));
  const loaded = new Promise((resolve) =>
    addEventListener(
      "load",
      () => setTimeout(() => idle(() => resolve(import("./offline.js"))), 1000),
      { once: true },
    ),
  );
  window.stackLabOffline = {
    saveAll: () => loaded.then((offline) => offline.saveAll()),
    status: () => loaded.then((offline) => offline.status()),
  };
})();

// Stack Lab offline (put last in every document's <body> by
// scripts/offline.py): once the page has loaded, imports scripts/offline.js,
// which registers the service worker. Until then the home page's
// `window.stackLabOffline` waits for it. A browser without service workers,
// or a page not in a secure context, gets none, and the home page says so.
(() => {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  const loaded = new Promise((resolve) =>
    addEventListener("load", () => resolve(import("./offline.js")), { once: true }),
  );
  window.stackLabOffline = {
    saveAll: () => loaded.then((offline) => offline.saveAll()),
    status: () => loaded.then((offline) => offline.status()),
  };
})();

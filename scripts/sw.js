// Stack Lab's service worker: the lab without a network. scripts/offline.py
// writes it into the build as sw.js, with the build's hash and file lists in
// place of BUILD, SHELL and MODULES.
//
// - One cache a build, named by the build's hash. Install fills it with the
//   shell (index.html, the main module, the icon and manifest); a demo's
//   module, its section's chunk and the page's ui modules go in when first
//   fetched, or all at once when the learner asks ("save-all"). Activation
//   deletes every other build's cache.
// - Pages come from the network while there is one, so an online learner
//   always gets the newest build; offline, the cached index.html of this
//   worker's own build, which opens any route. A page and its modules thus
//   always come from one build: the worker never keeps a page the network
//   sent, and only serves the files of its own build's lists (their names
//   carry the hash), so it cannot pair an old index.html with new modules
//   or a new one with old.
// - A new build's worker waits: the page offers "A new version is ready"
//   (scripts/offline.js) and it takes over when the learner says so
//   ("skip-waiting"). A learner who had saved every demo keeps them saved.
const BUILD = "__BUILD__";
const SHELL = __SHELL__;
const MODULES = __MODULES__;
const CACHE = `stack-lab-${BUILD}`;
// A cache entry saying the learner asked for every demo.
const EVERY_DEMO = "offline/every-demo";

const scope = self.registration.scope;
const at = (file) => new URL(file, scope).href;
const INDEX = at("index.html");
const ours = new Set([...SHELL, ...MODULES].map(at));

self.addEventListener("install", (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE);
      await cache.addAll(SHELL.map(at));
      if (await earlierBuildSavedAll()) await saveAll(cache);
    })(),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith("stack-lab-") && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("message", (event) => {
  const port = event.ports[0];
  if (event.data === "skip-waiting") {
    self.skipWaiting();
  } else if (port && event.data === "save-all") {
    caches
      .open(CACHE)
      .then(saveAll)
      .then(() => status())
      .then((s) => port.postMessage(s), (e) => port.postMessage({ error: String(e.message ?? e) }));
  } else if (port && event.data === "status") {
    status().then((s) => port.postMessage(s));
  }
});

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET" || !request.url.startsWith(scope)) return;
  if (request.mode === "navigate") {
    event.respondWith(page(request));
  } else if (ours.has(request.url)) {
    event.respondWith(file(request));
  }
});

/** A page: the network's, else (offline) this build's index.html. */
async function page(request) {
  try {
    return await fetch(request);
  } catch (offline) {
    const cached = await caches.match(INDEX, { cacheName: CACHE });
    if (cached) return cached;
    throw offline;
  }
}

/** A file of this build: from the cache, else fetched and kept. */
async function file(request) {
  const cache = await caches.open(CACHE);
  const cached = await cache.match(request.url);
  if (cached) return cached;
  const response = await fetch(request);
  if (response.ok) await cache.put(request.url, response.clone());
  return response;
}

/** Every module into `cache`, and the mark that the learner asked for them. */
async function saveAll(cache) {
  const missing = [];
  for (const name of MODULES) {
    if (!(await cache.match(at(name)))) missing.push(at(name));
  }
  await cache.addAll(missing);
  await cache.put(at(EVERY_DEMO), new Response(BUILD));
}

/** How many of the build's modules are kept, of how many. */
async function status() {
  const cache = await caches.open(CACHE);
  let saved = 0;
  for (const name of MODULES) {
    if (await cache.match(at(name))) saved += 1;
  }
  return { build: BUILD, saved, total: MODULES.length, everyDemo: !!(await cache.match(at(EVERY_DEMO))) };
}

/** Whether an earlier build's cache holds the learner's "every demo". */
async function earlierBuildSavedAll() {
  for (const name of await caches.keys()) {
    if (!name.startsWith("stack-lab-") || name === CACHE) continue;
    const cache = await caches.open(name);
    if (await cache.match(at(EVERY_DEMO))) return true;
  }
  return false;
}

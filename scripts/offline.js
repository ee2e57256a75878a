// Stack Lab offline, imported once the page has loaded (the few lines
// scripts/offline.py puts in every document import it, so a first visit's
// start never waits for it or for the worker): registers the service worker
// (sw.js, from scripts/sw.js); shows the static "A new version is ready"
// notice (index.html, #update) when a new build's worker is waiting, and
// hands over to it when the learner presses Reload; and answers the home
// page's "Make every demo available offline" (src/shell/offline.rs, through
// `window.stackLabOffline`): `saveAll()` and `status()`, each a promise of
// {build, saved, total, everyDemo} or {error}.
const container = navigator.serviceWorker;
// The page's policy asks for Trusted Types (scripts/csp.py): the worker's
// address goes through a policy that allows that one file.
const policy = window.trustedTypes?.createPolicy("stack-lab-offline", {
  createScriptURL: (url) => {
    if (url !== "sw.js") throw new TypeError(`not the lab's worker: ${url}`);
    return url;
  },
});
let asked = false;
const offer = (worker) => {
  const notice = document.getElementById("update");
  const reload = document.getElementById("update-reload");
  if (!notice || !reload) return;
  reload.onclick = () => {
    asked = true;
    worker.postMessage("skip-waiting");
  };
  notice.hidden = false;
};
// Only a handover the learner asked for reloads (the first worker also
// takes control of the page, by clients.claim()).
container.addEventListener("controllerchange", () => {
  if (asked) location.reload();
});
const watch = (registration) => {
  // Some hosts refuse workers without failing the promise (a test harness
  // that blocks them answers undefined).
  if (!registration) return { error: "this page may not have a service worker" };
  if (registration.waiting && container.controller) offer(registration.waiting);
  registration.addEventListener("updatefound", () => {
    const worker = registration.installing;
    worker?.addEventListener("statechange", () => {
      if (worker.state === "installed" && container.controller) offer(worker);
    });
  });
  return registration;
};
const registered = container
  .register(policy ? policy.createScriptURL("sw.js") : "sw.js")
  .then(watch, (e) => ({ error: String(e.message ?? e) }));
const ask = async (what) => {
  const registration = await registered;
  if (registration.error) return registration;
  const worker = (await container.ready).active;
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = (e) => resolve(e.data);
    worker.postMessage(what, [channel.port2]);
  });
};
export const saveAll = () => ask("save-all");
export const status = () => ask("status");

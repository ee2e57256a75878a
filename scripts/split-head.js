// Stack Lab (put last in index.html's <body> by scripts/split-loader.py): the
// module of the demo in the address bar is fetched alongside the main one, by
// a plain fetch() that the loader (scripts/split-loader.js) then takes over. A fetch
// rather than a <link rel="preload"> made here: in A/B runs of 16 loads, the
// document finished parsing 8–20 ms sooner.
(() => {
  const slug = location.pathname.split("/").filter((s) => s !== "").pop() ?? "";
  const modules = DEMO_MODULES;
  const file = modules[slug.replaceAll("-", "_")];
  if (file === undefined) return;
  // Relative: it resolves against <base>, as the loader's URLs do.
  const response = fetch(file);
  // A failure is the loader's to report, when the demo opens; until it
  // takes this promise, it must not count as unhandled.
  response.catch(() => {});
  window.stackLabEarlyModule = { file, response };
})();

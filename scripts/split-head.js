// Stack Lab (put last in index.html's <body> by scripts/split-loader.py): the
// main module and the module of the demo in the address bar start compiling
// while the document is still being parsed. Each compiles as it streams in,
// off the main thread; the app's script (inline, run once the document is
// parsed) and the loader (scripts/split-loader.js) take the compiled modules
// over. Measured: started here rather than by the app's script, a demo page
// is interactive 5 ms sooner (A/B, 60 loads in turns). A fetch() rather than
// a <link rel="preload"> added here: the document finished parsing 8–20 ms
// sooner (A/B runs of 16 loads). A demo's own document preloads its module
// (scripts/demo-pages.py); the fetch then takes that response.
(() => {
  /** A module as it streams in; from its bytes should a host send another MIME type. */
  const compile = (file) =>
    fetch(file).then((response) => {
      if (!response.ok) throw new Error(`${file}: HTTP ${response.status}`);
      return response.headers.get("content-type")?.startsWith("application/wasm")
        ? WebAssembly.compileStreaming(response)
        : response.arrayBuffer().then((bytes) => WebAssembly.compile(bytes));
    });
  // Until the app's script or the loader takes a promise, its failure must
  // not count as unhandled: they report it (the loader when the demo opens,
  // where the page can say so and retry).
  const started = (file) => {
    const module = compile(file);
    module.catch(() => {});
    return module;
  };
  window.stackLabCompile = compile;
  // Relative URLs: they resolve against <base>, as the loader's do.
  window.stackLabMain = started(MAIN_MODULE);
  // A copy whose pages are files (a SCORM package) names them `napi.html`.
  const slug = (location.pathname.split("/").filter((s) => s !== "").pop() ?? "").replace(/\.html$/, "");
  // The demo's own module, then the chunks it needs: this script's
  // data-modules names them for every demo (in a demo's own document, for
  // that demo alone: scripts/demo-pages.py).
  const table = JSON.parse(document.currentScript?.dataset.modules ?? "{}");
  const files = table[slug.replaceAll("-", "_")] ?? [];
  window.stackLabEarlyModules = new Map(files.map((file) => [file, started(file)]));
})();

// Stack Lab (put in index.html by scripts/split-wasm.sh): the module of the
// demo in the address bar is fetched alongside the main one; the loader's own
// fetch of it then takes this response.
(() => {
  const slug = location.pathname.split("/").filter((s) => s !== "").pop() ?? "";
  const modules = DEMO_MODULES;
  const file = modules[slug.replaceAll("-", "_")];
  if (file === undefined) return;
  const link = document.createElement("link");
  link.rel = "preload";
  link.as = "fetch";
  link.crossOrigin = "anonymous";
  link.href = new URL(file, document.baseURI).href;
  // The loader (scripts/split-loader.js) reads which module this is.
  link.dataset.demoModule = file;
  document.head.append(link);
})();

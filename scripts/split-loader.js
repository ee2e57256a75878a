// Stack Lab (appended by scripts/split-wasm.sh to wasm-split's loader, whose
// fetchers it points here): the module of the demo in the address bar is
// fetched before the main module starts (index.html's classic script starts
// the fetch, scripts/split-head.js) and compiled as it streams in, off the
// main thread; it is instantiated synchronously when the demo opens, so the
// demo opens in the same task as the page. Measured without this: the
// demo's bytes, though on the wire by then, reached the page only after it
// had drawn a first frame without the demo, 30–60 ms later; and compiling
// on the main thread when the demo opened cost it 1–3 ms more.
const fetched = new Map();

function fetchModule(file) {
    let entry = fetched.get(file);
    if (entry === undefined) {
        const url = new URL(file, import.meta.url);
        // The head script's fetch of this module, taken once: a retry
        // after a failure fetches anew.
        const early = window.stackLabEarlyModule;
        let response;
        if (early?.file === file) {
            response = early.response;
            delete window.stackLabEarlyModule;
        } else {
            response = fetch(url);
        }
        entry = {
            module: undefined,
            promise: response.then((response) => {
                if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
                // Streaming needs the wasm MIME type; a host that sends
                // another gets the module compiled from its bytes instead.
                const wasm = response.headers.get("content-type")?.startsWith("application/wasm");
                return wasm
                    ? WebAssembly.compileStreaming(response)
                    : response.arrayBuffer().then((bytes) => WebAssembly.compile(bytes));
            }),
        };
        const settled = entry;
        // A failed fetch is forgotten, so that "Try again" fetches anew.
        entry.promise.then((module) => { settled.module = module; }, () => fetched.delete(file));
        fetched.set(file, entry);
    }
    return entry;
}

function instantiator(file) {
    const entry = fetchModule(file);
    return async (imports) => {
        const module = entry.module ?? await entry.promise;
        return { module, instance: new WebAssembly.Instance(module, imports) };
    };
}

{
    // The module index.html's classic script picked for the address bar
    // (scripts/split-head.js). Top-level await: the main module, which
    // imports this one, starts once this one is compiled (it has been
    // downloading meanwhile). A failure only shows when the demo opens, where
    // the page can say so and retry.
    const file = window.stackLabEarlyModule?.file;
    if (file !== undefined) await fetchModule(file).promise.catch(() => {});
}

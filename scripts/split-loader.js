// Stack Lab (appended by scripts/split-wasm.sh to wasm-split's loader, whose
// fetchers it points here; the whole is inlined into index.html by
// scripts/inline-app-js.py): the modules of the demo in the address bar have
// been compiling since the document was parsed (scripts/split-head.js) and
// are instantiated synchronously when the demo opens, so the demo opens in
// the same task as the page. Measured without this: the demo's bytes, though
// on the wire by then, reached the page only after it had drawn a first
// frame without the demo, 30–60 ms later; and compiling on the main thread
// when the demo opened cost it 1–3 ms more.
const fetched = new Map();

function fetchModule(file) {
    let entry = fetched.get(file);
    if (entry === undefined) {
        // The head script's compile of this module, taken once: a retry
        // after a failure fetches anew.
        const early = window.stackLabEarlyModules;
        let promise = early?.get(file);
        if (promise !== undefined) {
            early.delete(file);
        } else {
            promise = window.stackLabCompile(new URL(file, document.baseURI).href);
        }
        entry = { module: undefined, promise };
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
    // The modules index.html's classic script picked for the address bar
    // (scripts/split-head.js). Top-level await: the main module starts once
    // they are compiled (they have been compiling side by side). A failure
    // only shows when the demo opens, where the page can say so and retry.
    const files = [...(window.stackLabEarlyModules?.keys() ?? [])];
    await Promise.all(files.map((file) => fetchModule(file).promise.catch(() => {})));
}

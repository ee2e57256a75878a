"""Points the fetchers of wasm-split's loader at scripts/split-loader.js, and
makes index.html compile the main module and the open demo's modules early
(scripts/split-head.js, last in <body>): the demo's own module and the
chunks it needs (scripts/split-wasm.sh).

Usage: split-loader.py LOADER.js INDEX.html MODULES.json  (rewrites the first
two in place, and writes in the third the files each demo's page fetches
besides the main module, for scripts/demo-pages.py; run by
scripts/split-wasm.sh). Fails unless every module's fetcher has exactly the
shape it expects, and every chunk is named where it is loaded, so a new
wasm-split cannot change them unnoticed.
"""
import json
import os
import re
import sys

loader_path, index_path, manifest_path = sys.argv[1], sys.argv[2], sys.argv[3]
scripts = os.path.dirname(os.path.abspath(__file__))
loader = open(loader_path).read()
fetcher = re.compile(
    r'\(\) => \{\n'
    r'    const src = fetch\(new URL\("(\./[^"]+-(\w+)\.wasm)", import\.meta\.url\)\);\n'
    r'    src\.catch\(\(\) => \{\}\);\n'
    r'    return async \(imports\) => (debugWrap)?\(WebAssembly\.instantiateStreaming\(src, imports\)\);\n'
    r'\}\n'
)
modules = {}


def point(match):
    file, module, wrap = match.group(1), match.group(2), match.group(3)
    modules[module] = file
    if wrap:
        # A debug build checks that the module belongs to this build.
        return '() => {\n    const instantiate = instantiator("%s");\n    return async (imports) => %s(instantiate(imports));\n}\n' % (file, wrap)
    return '() => instantiator("%s")\n' % file


loader = fetcher.sub(point, loader)
# A chunk: `const __chunk_N = makeLoad(<fetcher>, []);`; a module:
# `export const __wasm_split_load_NAME = wrapAsyncCb(makeLoad(<fetcher>, [__chunk_N, …]))`.
def file_of(fetcher):
    return re.fullmatch(r'(?s).*?instantiator\("([^"]+)"\).*', fetcher).group(1)


chunks = {var: file_of(f) for var, f in re.findall(r'(?ms)^const (__chunk_\d+) = makeLoad\((.*?), \[\]\);$', loader)}
loads = re.findall(r'(?ms)^export const __wasm_split_load_(\w+) = wrapAsyncCb\(makeLoad\((.*?), \[([\w, ]*)\]\)\);$', loader)
needs = {}
for name, fetcher, deps in loads:
    needs[name] = [file_of(fetcher)] + [chunks[d] for d in deps.split(", ") if d]
if (not modules or len(modules) != len(loads) + len(chunks) or 'instantiateStreaming' in loader
        or len(chunks) != loader.count("const __chunk_")
        or len(loads) != loader.count("export const __wasm_split_load_")):
    sys.exit("split-loader.py: %d fetchers rewritten for %d modules and %d chunks" % (len(modules), len(loads), len(chunks)))
open(loader_path, "w").write(loader + open(os.path.join(scripts, "split-loader.js")).read())

# The head script last in <body>: a classic script stops the parser, which
# then finished the document 4-8 ms later when the script sat in <head> (A/B,
# 30 loads); at the end it still starts the modules' fetches as early,
# because the parser reaches it in the same pass.
index = open(index_path).read()
# ui_* modules are parts of the page fetched when first used, not demos.
demo_modules = {m: files for m, files in needs.items() if not m.startswith("ui_")}
json.dump(needs, open(manifest_path, "w"), indent=1, sort_keys=True)
main_module = os.path.basename(loader_path).replace("-split.js", "_bg.wasm")
# The files of each demo ride on the script's data-modules attribute, as JSON,
# where scripts/demo-pages.py can cut a demo's own document down to its
# demo's entry (0.8 KiB gzip off each demo page).
table = json.dumps(demo_modules, sort_keys=True, separators=(",", ":"))
if "'" in table or "&" in table:
    sys.exit("split-loader.py: a module's file name would end the data-modules attribute: %s" % table)
script = "<script data-modules='%s'>\n%s</script>\n" % (
    table,
    open(os.path.join(scripts, "split-head.js")).read().replace("MAIN_MODULE", json.dumps("./" + main_module)),
)
body_end = index.rfind("</body>")
if body_end < 0 or main_module not in index:
    sys.exit("split-loader.py: index.html has no </body>, or does not load %s" % main_module)
index = index[:body_end] + script + index[body_end:]
open(index_path, "w").write(index)
print("split-loader.py: %d demo modules, %d chunks, %d more" % (len(demo_modules), len(chunks), len(needs) - len(demo_modules)))

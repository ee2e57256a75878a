"""Points the fetchers of wasm-split's loader at scripts/split-loader.js, and
makes index.html compile the main module and the open demo's module early
(scripts/split-head.js, last in <body>).

Usage: split-loader.py LOADER.js INDEX.html  (rewrites both in place; run by
scripts/split-wasm.sh). Fails unless every demo module's fetcher
has exactly the shape it expects, so a new wasm-split cannot change it
unnoticed.
"""
import json
import os
import re
import sys

loader_path, index_path = sys.argv[1], sys.argv[2]
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
exported = len(re.findall(r'^export const __wasm_split_load_', loader, flags=re.M))
if not modules or len(modules) != exported or 'instantiateStreaming' in loader:
    sys.exit("split-loader.py: %d fetchers rewritten for %d modules" % (len(modules), exported))
open(loader_path, "w").write(loader + open(os.path.join(scripts, "split-loader.js")).read())

# The head script last in <body>: a classic script stops the parser, which
# then finished the document 4-8 ms later when the script sat in <head> (A/B,
# 30 loads); at the end it still starts the modules' fetches as early,
# because the parser reaches it in the same pass.
index = open(index_path).read()
# ui_* modules are parts of the page fetched when first used, not demos.
demo_modules = {m: f for m, f in modules.items() if not m.startswith("ui_")}
main_module = os.path.basename(loader_path).replace("-split.js", "_bg.wasm")
script = (
    "<script>\n%s</script>\n"
    % open(os.path.join(scripts, "split-head.js"))
    .read()
    .replace("DEMO_MODULES", json.dumps(demo_modules, sort_keys=True))
    .replace("MAIN_MODULE", json.dumps("./" + main_module))
)
body_end = index.rfind("</body>")
if body_end < 0 or main_module not in index:
    sys.exit("split-loader.py: index.html has no </body>, or does not load %s" % main_module)
index = index[:body_end] + script + index[body_end:]
open(index_path, "w").write(index)
print("split-loader.py: %d demo modules, %d more" % (len(demo_modules), len(modules) - len(demo_modules)))

"""Inlines the app's JavaScript (wasm-bindgen's glue and the loader of the demo
modules) into index.html, in place of Trunk's script that imports them, so
the page fetches no script at all.

Why: a module script that imports files runs only once they have arrived and
the renderer has handled them, and Chrome draws a frame of the empty page
first; inline, the script runs as soon as the document is parsed. Measured:
a demo page interactive 10-17 ms sooner (A/B of 40-60 loads in turns, on
/cpu/tlb, /nic/descriptor-ring, /cpu/cache-hierarchy and /memory/reordering).

Usage: inline-app-js.py GLUE.js LOADER.js INDEX.html  (rewrites INDEX.html;
run by scripts/split-wasm.sh, which then ships neither JS file). Fails
unless both files and Trunk's script have exactly the shapes it expects, and
unless the two files declare no name in common, so that a new wasm-bindgen,
wasm-split or Trunk cannot change them unnoticed.
"""
import json
import re
import sys

glue_path, loader_path, index_path = sys.argv[1], sys.argv[2], sys.argv[3]
glue = open(glue_path).read()
loader = open(loader_path).read()
index = open(index_path).read()


def fail(why):
    sys.exit("inline-app-js.py: " + why)


# The glue imports the loader's namespace under several names, and exports
# what Trunk's script calls.
glue_imports = re.compile(r'^import \* as (import\d+) from "\./__wasm_split\.js"\n', re.M)
namespaces = glue_imports.findall(glue)
glue = glue_imports.sub("", glue)
glue_export = "export { initSync, __wbg_init as default };\n"
if not namespaces or glue_export not in glue:
    fail("the glue's imports or exports are not the expected ones")
glue = glue.replace(glue_export, "")
# The classes the glue exported are gone (scripts/drop-unused-classes.py).

# The loader imports the glue's initSync and exports one function a demo.
loader_import = re.compile(r'^import \{ initSync \} from "\./[^"]+\.js";\n', re.M)
if len(loader_import.findall(loader)) != 1:
    fail("the loader's import is not the expected one")
loader = loader_import.sub("", loader)
loads = re.findall(r"^export const (__wasm_split_load_\w+) =", loader, flags=re.M)
loader = re.sub(r"^export const (__wasm_split_load_\w+) =", r"const \1 =", loader, flags=re.M)

for name, code in (("glue", glue), ("loader", loader)):
    left = re.findall(r"^\s*(?:import|export)\b.*$", code, flags=re.M)
    if left:
        fail("the %s has an import or export left: %s" % (name, "; ".join(left[:3])))


def top_level_names(code):
    """Names declared at the top level (column 0) of a script."""
    names = set(re.findall(r"^(?:async )?(?:function\*? ?|class )(\w+)", code, flags=re.M))
    for decl in re.findall(r"^(?:const|let|var) ([^=;]+)", code, flags=re.M):
        names.update(re.findall(r"\b([A-Za-z_$][\w$]*)\b", decl.split("{")[0]))
    return names


clash = top_level_names(glue) & top_level_names(loader)
if clash:
    fail("the glue and the loader both declare %s" % ", ".join(sorted(clash)))

# Trunk's script: it imports the glue and starts the main module.
trunk = re.compile(
    r'<script type="module">\s*'
    r"import init, \* as bindings from '[^']+';\s*"
    r"const wasm = await init\(\{ module_or_path: '([^']+)' \}\);\s*"
    r"window\.wasmBindings = bindings;\s*"
    r'dispatchEvent\(new CustomEvent\("TrunkApplicationStarted", \{detail: \{wasm\}\}\)\);\s*'
    r"</script>"
)
found = trunk.findall(index)
if len(found) != 1:
    fail("index.html has not exactly one script of Trunk's expected shape")
main_module = found[0]

# The loader's namespace under the glue's names for it, then the start of the
# main module from the head script's compile. Trunk's script also set
# window.wasmBindings and sent a TrunkApplicationStarted event, for page
# scripts that call into the wasm; this page has none.
names = "const %s = { %s };\n" % (namespaces[0], ", ".join(loads))
names += "".join("const %s = %s;\n" % (n, namespaces[0]) for n in namespaces[1:])
start = """// The main module as the head script compiled it (scripts/split-head.js);
// should that have failed, the glue fetches it anew and reports what fails.
await __wbg_init({
    module_or_path: (await window.stackLabMain?.catch(() => undefined)) ?? %s,
});
""" % json.dumps(main_module)

# Chrome (136 on) compiles every function of a script that starts with this
# comment when it compiles the script (V8 blog, "Explicit compile hints");
# otherwise each function start-up calls is compiled when first called,
# during the app's start. A script file is
# compiled off the main thread as it streams in; this inline one is compiled
# on the main thread while the document is parsed (V8.CompileCode inside
# ParseHTML in a Chrome trace), which still moves that work out of the app's
# start: without the comment, /nic/napi's own start-up work is 1.1-1.9 ms
# longer (A/B of 60 loads in turns, against two copies of the build with it,
# which differed by 0.8 ms). Other browsers read a comment.
code = "//# allFunctionsCalledOnLoad\n" + glue + "\n" + loader + "\n" + names + start
# import.meta.url is a module script's base URL: for a file its own address
# (the files sat at the site's base), inline the document's base URL (HTML
# Living Standard, "prepare the script element"). document.baseURI says so
# outright, <base> and sub-path included.
code = code.replace("import.meta.url", "document.baseURI")
# Either would change how the HTML parser reads the script's text (HTML
# Living Standard, 4.12.1.3 "Restrictions for contents of script elements").
if "</script" in code.lower() or "<!--" in code:
    fail("the code holds </script or <!--, which an inline script cannot")
index = trunk.sub(lambda _: '<script type="module">\n%s</script>' % code, index)

# Trunk's preload of the glue: there is no file to fetch any more.
index, preloads = re.subn(r'<link rel="modulepreload" href="[^"]+\.js"[^>]*>\n?', "", index)
if preloads != 1:
    fail("index.html has %d modulepreloads of the glue, not 1" % preloads)
open(index_path, "w").write(index)
print("inline-app-js.py: %d KiB of JavaScript inlined" % (len(code) // 1024))

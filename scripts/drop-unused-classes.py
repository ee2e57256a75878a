"""Drops the classes wasm-bindgen's glue exports, which no script of the site
imports, and the main module's exports that only they call.

Why: Leptos's `csr` feature turns on server_fn's `browser` feature, which
brings wasm-streams, whose stream adapters (`IntoUnderlyingSource`,
`IntoUnderlyingSink`, `IntoUnderlyingByteSource`) are `#[wasm_bindgen]`
types: wasm-bindgen exports their methods from the wasm and writes a class
for each in the glue. This app has no server functions, and the glue goes
inline into index.html, where nothing can import a class. An export is a
root the linker and wasm-opt must keep; dropped, wasm-opt removes the code
behind it. Measured: the main module 1.4 KiB gzip lighter.

Usage: drop-unused-classes.py MODULE_bg.wasm GLUE.js  (rewrites both; run by
scripts/split-wasm.sh after wasm-bindgen, before the glue is inlined and
wasm-opt runs). Fails if a dropped class or export is still named anywhere
in the glue, so that a class some code uses is never dropped.
"""
import re
import sys

from wasmbin import find_section, leb, read_leb, read_name, section

wasm_path, glue_path = sys.argv[1], sys.argv[2]
wasm = bytearray(open(wasm_path, "rb").read())
glue = open(glue_path).read()


def fail(why):
    sys.exit("drop-unused-classes.py: " + why)


# Each exported class: `export class Name {` to its closing brace at the
# start of a line, then the line that gives it Symbol.dispose, and the
# FinalizationRegistry that frees what the wasm held for it.
classes = re.findall(r"^export class (\w+) \{$", glue, flags=re.M)
dropped_exports = set()
for name in classes:
    body = re.compile(
        r"^export class %s \{\n.*?^\}\n(?:if \(Symbol\.dispose\) %s\.prototype\[Symbol\.dispose\] = %s\.prototype\.free;\n)?"
        % (name, name, name),
        flags=re.M | re.S,
    )
    found = body.search(glue)
    if not found:
        fail("the class %s is not of the expected shape" % name)
    registry = re.compile(r"^const %sFinalization = [^;]*;\n" % name, flags=re.M)
    freed = registry.search(glue)
    dropped_exports.update(re.findall(r"\bwasm\.(\w+)\(", found.group(0)))
    if freed:
        dropped_exports.update(re.findall(r"\bwasm\.(\w+)\(", freed.group(0)))
    glue = body.sub("", glue, count=1)
    glue = registry.sub("", glue, count=1)
    if re.search(r"\b%s\b" % name, glue):
        fail("the class %s is still used in the glue" % name)
for export in dropped_exports:
    if re.search(r"\b%s\b" % export, glue):
        fail("the export %s is still called from the glue" % export)

# The export section (id 7), without the dropped exports.
found = find_section(wasm, 7)
if found is None:
    fail("the wasm has no export section")
section_at, start, end = found
count, entry = read_leb(wasm, start)
kept = []
for _ in range(count):
    name, described = read_name(wasm, entry)
    _, after = read_leb(wasm, described + 1)  # its kind, then its index
    if name in dropped_exports:
        dropped_exports.discard(name)
    else:
        kept.append(bytes(wasm[entry:after]))
    entry = after
wasm[section_at:end] = section(7, leb(len(kept)) + b"".join(kept))
if dropped_exports:
    fail("the glue called exports the wasm does not have: %s" % ", ".join(sorted(dropped_exports)))

open(wasm_path, "wb").write(wasm)
open(glue_path, "w").write(glue)
print("drop-unused-classes.py: dropped %s" % (", ".join(classes) or "nothing"))

"""Gives the main module's imports from wasm-bindgen's glue short names, in
the wasm and in the glue alike.

Why: wasm-bindgen names each import after its Rust binding plus a 16-digit
hash (`__wbg_setAttribute_4a6e2c1d9b3f7e08`): about 190 names of ~30 random
characters, once in the wasm's import section and once in the glue, that no
compressor can shrink. Measured on the main module: 3.4 KiB gzip off the
wasm alone, and every page fetches it. What a name says is for debugging
the glue, which the shipped site never needs (the build keeps no name
section either).

Usage: minify-imports.py MODULE_bg.wasm GLUE.js  (rewrites both; run by
scripts/split-wasm.sh right after wasm-bindgen). Only the imports the glue
itself provides (its `import0` object) are renamed; the loader's imports
(`./__wasm_split.js`) keep their names. Fails unless every renamed import is
a key of that object exactly once and appears nowhere else in the glue, so
that a new wasm-bindgen cannot change the glue's shape unnoticed.
"""
import re
import string
import sys

from wasmbin import encode_name, find_section, leb, read_leb, read_name, section

wasm_path, glue_path = sys.argv[1], sys.argv[2]
wasm = bytearray(open(wasm_path, "rb").read())
glue = open(glue_path).read()


def fail(why):
    sys.exit("minify-imports.py: " + why)


def short_names():
    """a, b, …, Z, then aa, ab, …: each a plain JavaScript property name."""
    letters = string.ascii_letters
    for first in letters:
        yield first
    for first in letters:
        for second in letters + string.digits:
            yield first + second


# The glue's own imports: the object it passes as the module `import0` maps to.
provided = re.search(r'^\s*"([^"]+)": import0,$', glue, flags=re.M)
if not provided:
    fail("the glue does not pass an import0 object")
glue_module = provided.group(1)

# The import section (id 2) is rewritten in place.
found = find_section(wasm, 2)
if found is None:
    fail("the wasm has no import section")
section_at, start, end = found

count, at = read_leb(wasm, start)
renamed = bytearray(leb(count))
names = short_names()
mapping = {}
for _ in range(count):
    module, at = read_name(wasm, at)
    field, at = read_name(wasm, at)
    # The import's description: its kind, then what that kind carries.
    described = at
    kind = wasm[at]
    at += 1
    if kind == 0:  # function: a type index
        _, at = read_leb(wasm, at)
    elif kind == 1:  # table: element type, limits
        at += 1
        flags = wasm[at]
        _, at = read_leb(wasm, at + 1)
        if flags & 1:
            _, at = read_leb(wasm, at)
    elif kind == 2:  # memory: limits
        flags = wasm[at]
        _, at = read_leb(wasm, at + 1)
        if flags & 1:
            _, at = read_leb(wasm, at)
    elif kind == 3:  # global: value type, mutability
        at += 2
    else:
        fail("an import of unknown kind %d" % kind)
    if module == glue_module:
        if field not in mapping:
            mapping[field] = next(names)
        field = mapping[field]
    renamed += encode_name(module) + encode_name(field)
    renamed += wasm[described:at]
if at != end:
    fail("the import section was not read to its end")
if not mapping:
    fail("no import of %s in the wasm" % glue_module)

# In the glue: each renamed import is a key of import0, once, and nowhere
# else. Its other keys keep their long names, so no two keys can clash; a
# short key may equal a variable's name, which a property key never shadows.
for old, new in mapping.items():
    uses = len(re.findall(r"\b%s\b" % re.escape(old), glue))
    key = re.compile(r"^(\s+)%s: " % re.escape(old), flags=re.M)
    if uses != 1 or len(key.findall(glue)) != 1:
        fail("%s is not one key of the glue's import0 (%d uses)" % (old, uses))
    glue = key.sub(lambda m: m.group(1) + new + ": ", glue)

wasm[section_at:end] = section(2, bytes(renamed))
open(wasm_path, "wb").write(wasm)
open(glue_path, "w").write(glue)

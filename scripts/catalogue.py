"""The lab's catalogue as the build scripts read it: src/catalogue/*.rs, one
`Demo { … }` literal per demo, its fields one a line (rustfmt's layout).

Used by demo-pages.py (each demo's section, slug and module), scorm.py
(the sections, one SCO each),
size-marginal.sh (which drops entries to measure what a demo adds) and
split-wasm.sh (`catalogue.py families DIR`: each section's modules, the
families wasm-split-cli cuts a chunk for).
"""
import glob
import os
import re
import sys

# An entry in a list (`\n    Demo {`), or a section's only one, which
# rustfmt writes on the list's line (`&[Demo {`).
ENTRY = re.compile(r"(?:\n    |&\[)Demo \{\n.*?\n *\}[,\]]", re.S)


def sources(folder):
    """The catalogue's files, in a stable order."""
    return sorted(glob.glob(os.path.join(folder, "*.rs")))


def fields(entry):
    """An entry's section, slug and module (the name `split_open!` cuts it
    under), from its text; None for a field it lacks."""
    section = re.search(r'\bsection: "(\w+)",', entry)
    slug = re.search(r'\bslug: "([\w-]+)",', entry)
    module = re.search(r"\bsplit_open!\((\w+):", entry)
    return tuple(m.group(1) if m else None for m in (section, slug, module))


def entries(folder):
    """(section, slug, module) of every demo in the catalogue."""
    return [fields(m.group(0)) for path in sources(folder) for m in ENTRY.finditer(open(path).read())]


SECTION = re.compile(r'\n    Section \{\n        id: "(\w+)",\n        title: "([^"\\]*)",')


def sections(folder):
    """(id, title) of every section, in the catalogue's order (the
    `SECTIONS` table of its mod.rs)."""
    return SECTION.findall(open(os.path.join(folder, "mod.rs")).read())


def families(folder):
    """Each section's modules, sections split by `;`, modules by spaces: the
    form of wasm-split-cli's STACK_LAB_SPLIT_FAMILIES
    (scripts/wasm-split-families.patch)."""
    sections = {}
    for section, _, module in entries(folder):
        sections.setdefault(section, []).append(module)
    return "; ".join(" ".join(sorted(m)) for _, m in sorted(sections.items()))


if __name__ == "__main__" and sys.argv[1:2] == ["families"]:
    print(families(sys.argv[2]))

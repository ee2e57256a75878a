"""The lab's catalogue as the build scripts read it: src/catalogue/*.rs, one
`Demo { … }` literal per demo, its fields one a line (rustfmt's layout).
A page of no section (`section: ""`, the journey, at `/journey`) is a tour:
it draws on the sections its file's `DRAWS_ON` names.

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
    section = re.search(r'\bsection: "(\w*)",', entry)
    slug = re.search(r'\bslug: "([\w-]+)",', entry)
    module = re.search(r"\bsplit_open!\((\w+):", entry)
    return tuple(m.group(1) if m else None for m in (section, slug, module))


def entries(folder):
    """(section, slug, module) of every demo in the catalogue (a tour's
    section is "")."""
    return [fields(m.group(0)) for _, text in files(folder) for m in ENTRY.finditer(text)]


def files(folder):
    """(path, text) of each catalogue file."""
    return [(path, open(path).read()) for path in sources(folder)]


DRAWS_ON = re.compile(r"\bDRAWS_ON: &\[&str\] = &\[([^\]]*)\];")


def tours(folder):
    """(module, sections it draws on) of every tour in the catalogue."""
    found = []
    for _, text in files(folder):
        for m in ENTRY.finditer(text):
            section, _, module = fields(m.group(0))
            if section == "":
                draws = DRAWS_ON.search(text)
                found.append((module, re.findall(r'"(\w+)"', draws.group(1)) if draws else []))
    return found


def page_path(section, slug):
    """A page's document below the site's root: <section>/<slug>.html, or
    <slug>.html for a tour."""
    return os.path.join(section, slug + ".html") if section else slug + ".html"


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
        if section:
            sections.setdefault(section, []).append(module)
    # A tour joins the family of every section it draws on: what it shares
    # with that section's demos goes to their chunk (or, shared with one
    # demo alone, to a chunk of the two), and what only the section's demos
    # share to a chunk the tour does not fetch (scripts/wasm-split-families.patch).
    for module, draws_on in tours(folder):
        for section in draws_on:
            sections.setdefault(section, []).append(module)
    return "; ".join(" ".join(sorted(m)) for _, m in sorted(sections.items()))


if __name__ == "__main__" and sys.argv[1:2] == ["families"]:
    print(families(sys.argv[2]))

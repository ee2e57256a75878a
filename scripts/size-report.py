"""Size report of the release build in dist/ (run by `make size`): every
file the pages fetch, raw and gzip -9, and the totals; then what a page
fetches. Every page fetches index.html (which holds the page's stylesheet and
JavaScript) and the main module; a demo page also its own module and the
chunks it needs, which its own document preloads
(scripts/demo-pages.py), so the preloads are read from there. A ui_* module
is a part of the page fetched when first used (the lesson panel).
"""
import glob
import gzip
import os
import re
import sys

dist = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "dist")
os.chdir(dist)
KiB = 1024
# The heaviest page's budget, gzip KiB (the developers' guide; issue 31).
PAGE_BUDGET_KIB = 250


def gz(path):
    return len(gzip.compress(open(path, "rb").read(), compresslevel=9, mtime=0))


files = sorted(f for pattern in ("index.html", "*.wasm", "*.js", "*.css") for f in glob.glob(pattern))
print("%-52s %10s %10s" % ("file", "raw KiB", "gzip KiB"))
raw = {f: os.path.getsize(f) for f in files}
packed = {f: gz(f) for f in files}
for f in files:
    print("%-52s %10.1f %10.1f" % (f, raw[f] / KiB, packed[f] / KiB))
print("%-52s %10.1f %10.1f" % ("TOTAL", sum(raw.values()) / KiB, sum(packed.values()) / KiB))

main = [f for f in files if f.endswith("_bg.wasm")]
if len(main) != 1:
    sys.exit("size-report.py: %d main modules in dist/" % len(main))
every = packed["index.html"] + packed[main[0]]
print("\n%-52s %10.1f %10.1f" % ("every page fetches (index.html, main module)",
                                 (raw["index.html"] + raw[main[0]]) / KiB, every / KiB))

# A demo page: its own document, and every module it preloads.
pages, preloaded = {}, {}
# A section's demo is <section>/<slug>.html; a tour (the journey) <slug>.html.
documents = glob.glob("*/*.html") + [d for d in glob.glob("*.html") if d not in ("index.html", "404.html")]
for doc in sorted(documents):
    preloaded[doc] = re.findall(r'<link rel="preload" href="[^"]*?([^"/]+\.wasm)"', open(doc).read())
    pages[doc] = gz(doc) + sum(packed[p] for p in preloaded[doc])
if pages:
    ranked = sorted(pages.items(), key=lambda p: p[1])
    print("a demo page fetches, gzip KiB (%d demos): lightest %.1f (%s), median %.1f, heaviest %.1f (%s)" % (
        len(ranked), ranked[0][1] / KiB, ranked[0][0], ranked[len(ranked) // 2][1] / KiB,
        ranked[-1][1] / KiB, ranked[-1][0]))
    print("heaviest page, gzip KiB: %.1f (%s)" % (ranked[-1][1] / KiB, ranked[-1][0]))
    over = [(doc, size) for doc, size in reversed(ranked) if size > PAGE_BUDGET_KIB * KiB]
    print("pages over the %d KiB budget: %d of %d%s" % (
        PAGE_BUDGET_KIB, len(over), len(ranked),
        "".join("\n  %s %.1f" % (doc, size / KiB) for doc, size in over)))
    chunks = [f for f in files if re.search(r"-chunk_\d+\.wasm$", f)]
    for chunk in chunks:
        users = [doc for doc in pages if chunk in preloaded[doc]]
        print("shared chunk %s %.1f gzip KiB, fetched by %s" % (chunk, packed[chunk] / KiB, ", ".join(users)))
later = ["%s %.1f" % (f, packed[f] / KiB) for f in files if re.search(r"-ui_\w+\.wasm$", f)]
if later:
    print("fetched when first used, gzip KiB: " + ", ".join(later))

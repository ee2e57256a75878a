"""Writes each demo's own entry document, <section>/<slug>.html beside
index.html (a tour's, <slug>.html): index.html with more <link rel="preload">s, for that demo's
module and the chunks it needs, next to Trunk's preload of the
main module.

The document's head script names the files of that demo alone, not of
every demo as index.html's does (the address can name no other demo).

Why: a page opened at a demo's address (a link, a share link, an embed)
needs two modules, and the browser's preload scanner can only see what the
document names. From index.html the demo's module is asked for by the head
script (scripts/split-head.js), which runs once the parser has reached the
end of <body>, 15-40 ms after the main module's request in Chrome traces on
this machine; the demo then waited for its module. Named in the document,
both go out together. Measured: /cpu/cache-hierarchy interactive 7 ms
sooner (A/B of 59 loads in turns, paired median of the differences). The
head script still fetches the module, and gets the preloaded response.

A static host that maps /cpu/tlb to cpu/tlb.html serves these: GitHub Pages,
Netlify, Cloudflare Pages, Render and Azure Static Web Apps do by default,
Vercel with `cleanUrls` (tested host by host in slorber/trailing-slash-guide,
docs/Hosting-Providers.md; Cloudflare's "Serving Pages", "Route matching"),
nginx with `try_files $uri $uri.html`, and end2end/serve.mjs. Any other
serves index.html or 404.html, which work as before.

Usage: demo-pages.py INDEX.html CATALOGUE_DIR MODULES.json MODULE...  (run by
scripts/split-wasm.sh). MODULES.json: the files each module needs, from
scripts/split-loader.py. MODULE: a demo module's name as wasm-split gave it
(`cache_hierarchy`). Fails unless every module is exactly one demo of the
catalogue and every demo a module, and unless index.html preloads the main
module exactly once.
"""
import json
import os
import re
import sys

from catalogue import entries, page_path

index_path, catalogue_dir, needs_path, modules = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
needs = json.load(open(needs_path))
index = open(index_path).read()


def fail(why):
    sys.exit("demo-pages.py: " + why)


demos = {}
for section, slug, module in entries(catalogue_dir):
    if None in (section, slug, module):
        fail("a catalogue entry lacks its section, slug or split_open!: %s" % [section, slug, module])
    if module in demos:
        fail("module %s is cut for two demos" % module)
    demos[module] = (section, slug)
if sorted(demos) != sorted(modules):
    fail("the catalogue's modules %s are not the built ones %s" % (sorted(demos), sorted(modules)))

# Trunk's preload of the main module; its href carries the public URL.
main_preload = re.compile(r'<link rel="preload" href="([^"]*)_bg\.wasm"[^>]*>')
found = main_preload.findall(index)
if len(found) != 1:
    fail("index.html preloads the main module %d times, not once" % len(found))
link, stem = main_preload.search(index).group(0), found[0]
# The head script's table of every demo's files (scripts/split-loader.py): a
# demo's own document names its own demo's alone.
table = re.compile(r"<script data-modules='([^']*)'>")
found = table.findall(index)
if len(found) != 1:
    fail("index.html has %d head scripts with data-modules, not one" % len(found))
every = json.loads(found[0])
dist = os.path.dirname(index_path)
for module, (section, slug) in sorted(demos.items()):
    own = ""
    for file in needs[module]:
        href = os.path.join(os.path.dirname(stem), os.path.basename(file))
        if not os.path.exists(os.path.join(dist, os.path.basename(href))):
            fail("%s would preload %s, which the build lacks" % (slug, href))
        own += link.replace('%s_bg.wasm"' % stem, '%s"' % href)
    document = os.path.join(dist, page_path(section, slug))
    os.makedirs(os.path.dirname(document), exist_ok=True)
    if every.get(module) != needs[module]:
        fail("the head script names %s for %s, not %s" % (every.get(module), module, needs[module]))
    alone = "<script data-modules='%s'>" % json.dumps({module: every[module]}, separators=(",", ":"))
    with open(document, "w") as page:
        page.write(table.sub(lambda _: alone, index.replace(link, link + own)))
print("demo-pages.py: %d demo documents" % len(demos))

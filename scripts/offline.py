"""Makes the build work offline: writes its service worker, sw.js, from
scripts/sw.js (the build's id and the lists of files it caches), copies
scripts/offline.js, which registers it, and puts scripts/offline-head.js,
which imports that once the page has loaded, last in index.html's <body>, so
every document of the build (demo-pages.py copies index.html) has it.

The build's id is a hash of everything the worker caches, as this step sees
it, and of the build's scripts, which rewrite it after this step: a change to
any page, module, static file or build step makes a new sw.js, which the
browser installs as a new worker with a cache of its own (scripts/sw.js says
how it replaces the old one). The files' names carry Trunk's hash of the
wasm, which a change to index.html alone would not move.

The shell (cached when the worker installs): index.html, offline.js, the
main module, the icon and the manifest. The modules (cached when first fetched, or all at
once on "Make every demo available offline"): every other .wasm.

Usage: offline.py INDEX.html STAGING_DIR WORK_DIR NAME  (run by
scripts/split-wasm.sh, after the modules have their final names and before
minify-inline.py, demo-pages.py and csp.py). NAME: the build's file stem
(stack-lab-<hash>); WORK_DIR holds its .wasm files.
"""
import hashlib
import json
import os
import sys

index_path, staging, work, name = sys.argv[1:5]
scripts = os.path.dirname(os.path.abspath(__file__))


def fail(why):
    sys.exit("offline.py: " + why)


main = name + "_bg.wasm"
wasm = sorted(f for f in os.listdir(work) if f.endswith(".wasm"))
if main not in wasm:
    fail("%s is not among the build's modules %s" % (main, wasm))
modules = [f for f in wasm if f != main]
if not modules or any(not f.startswith(name + "-") for f in modules):
    fail("every module should be named %s-<module>.wasm: %s" % (name, modules))
static = ["static/icon.svg", "static/manifest.webmanifest"]
for f in static:
    if not os.path.exists(os.path.join(staging, f)):
        fail("the shell's %s is not in the build" % f)
shell = ["index.html", "offline.js", main] + static

index = open(index_path).read()
body_end = index.rfind("</body>")
if body_end < 0 or 'id="update"' not in index:
    fail("index.html has no </body>, or no #update notice for the script to show")
index = index[:body_end] + "<script>\n%s</script>\n" % open(os.path.join(scripts, "offline-head.js")).read() + index[body_end:]
registration = open(os.path.join(scripts, "offline.js")).read()

digest = hashlib.sha256(index.encode() + registration.encode())
for f in wasm:
    digest.update(f.encode() + open(os.path.join(work, f), "rb").read())
for f in static:
    digest.update(f.encode() + open(os.path.join(staging, f), "rb").read())
# And the build's own scripts: the steps after this one (wasm-opt's flags in
# split-wasm.sh, minify-inline.py, drop-null-slots.py, demo-pages.py,
# csp.py) change what is served from the same inputs, and a worker whose id
# did not move would keep serving the files it cached.
for f in sorted(f for f in os.listdir(scripts) if os.path.isfile(os.path.join(scripts, f))):
    digest.update(f.encode() + open(os.path.join(scripts, f), "rb").read())
build = digest.hexdigest()[:16]

worker = open(os.path.join(scripts, "sw.js")).read()
for placeholder, value in (('"__BUILD__"', build), ("__SHELL__", shell), ("__MODULES__", modules)):
    if worker.count(placeholder) != 1:
        fail("scripts/sw.js should hold %s once" % placeholder)
    worker = worker.replace(placeholder, json.dumps(value))
open(os.path.join(staging, "sw.js"), "w").write(worker)
open(os.path.join(staging, "offline.js"), "w").write(registration)
open(index_path, "w").write(index)
print("offline.py: sw.js for build %s: a shell of %d files, %d modules" % (build, len(shell), len(modules)))

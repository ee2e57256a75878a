"""Minifies the scripts and styles written inline in a document (the app's
stylesheets, as one <style>, wasm-bindgen's glue with the modules' loader,
the head script), with esbuild (from npm, tools/), in place.

Why: every page carries them before it can start, and they are most of
index.html. Measured with `make size` on the build of 2026-11-27:
index.html 86.6 KB raw / 17.6 KiB gzip before, 47.4 KB / 12.9 KiB after.

A module script stays a module (top-level await, strict); a classic one
stays classic. A script that starts with V8's `//# allFunctionsCalledOnLoad`
hint keeps it first (scripts/inline-app-js.py says why it is there).

Usage: minify-inline.py INDEX.html  (run by scripts/split-wasm.sh, before
the demos' own documents are copied from it and before scripts/csp.py
hashes what is inline).
"""
import re
import subprocess
import sys

index_path = sys.argv[1]
index = open(index_path).read()
HINT = "//# allFunctionsCalledOnLoad\n"


def esbuild(code, loader, module=False):
    args = ["esbuild", "--minify", "--loader=" + loader, "--log-level=warning"]
    if module:
        args.append("--format=esm")
    done = subprocess.run(args, input=code, capture_output=True, text=True)
    if done.returncode != 0:
        sys.exit("minify-inline.py: esbuild failed: " + done.stderr)
    return done.stdout.rstrip("\n") + "\n"


def script(match):
    attrs, code = match.group(1), match.group(2)
    kind = re.search(r'\btype="([^"]*)"', attrs)
    if re.search(r"\bsrc=", attrs) or not code.strip() or (kind and kind.group(1) != "module"):
        return match.group(0)
    hint = code.startswith(HINT)
    out = esbuild(code[len(HINT):] if hint else code, "js", module='type="module"' in attrs)
    if "</script" in out.lower() or "<!--" in out:
        sys.exit("minify-inline.py: minified code holds </script or <!--")
    return "<script%s>\n%s%s</script>" % (attrs, HINT if hint else "", out)


def style(match):
    return "<style%s>%s</style>" % (match.group(1), esbuild(match.group(2), "css"))


def one_sheet(match):
    # Sheets one after another apply as their concatenation would, unless a
    # later one has a rule only a sheet's start may hold.
    if re.search(r"@(import|charset|namespace)\b", match.group(1)):
        sys.exit("minify-inline.py: a later inline sheet has an @import, @charset or @namespace")
    return ""


before = len(index)
index = re.sub(r"<script([^>]*)>(.*?)</script>", script, index, flags=re.S)
# Trunk inlines each stylesheet as a <style> of its own (scene.css, then
# app.css): one <style> of both saves each document a hash in its policy
# and the compressor a fresh start (43 bytes gzip a document).
index = re.sub(r"</style>\s*<style>(?=(.*?)</style>)", one_sheet, index, flags=re.S)
index = re.sub(r"<style([^>]*)>(.*?)</style>", style, index, flags=re.S)
open(index_path, "w").write(index)
print("minify-inline.py: index.html %d -> %d bytes" % (before, len(index)))

"""Gives every HTML document of the build a strict Content Security Policy: a
<meta http-equiv="Content-Security-Policy"> right after <meta charset>, that
allows the page's own inline scripts and styles by their sha256 and nothing
else inline, and the app's DOM writes only through Trusted Types.

Why: the app renders text from share links and forms. Its renderer escapes
every value (ARCHITECTURE.md, "nothing from a URL is rendered as HTML"); the
policy is the second wall, should a bug ever let markup through: no script
that is not one of the build's own runs, and no string reaches an HTML sink.

The hashes are computed per document (index.html and each demo's
<section>/<slug>.html from demo-pages.py), over the exact text the browser
hashes: each inline <script> (the app's script from inline-app-js.py and the
head script from split-loader.py) and <style> (scene.css and app.css,
inlined by Trunk, as one sheet by minify-inline.py). A meta policy cannot
carry frame-ancestors, and the lab must stay embeddable anyway (?embed=1).

Usage: csp.py STAGING_DIR  (run last by scripts/split-wasm.sh; the Makefile
then copies index.html to 404.html, policy included). Rewrites each document
in place; run again, it replaces its policy instead of adding one. Fails on
what no hash can allow: an inline event handler (on...=), a style="..."
attribute, a javascript: URL; and on a <base href> on another origin, which
base-uri 'self' would refuse.
"""
import base64
import hashlib
import os
import re
import sys
from html.parser import HTMLParser
from urllib.parse import urlsplit

staging = sys.argv[1]


def fail(why):
    sys.exit("csp.py: " + why)


def sha256(data):
    return "'sha256-%s'" % base64.b64encode(hashlib.sha256(data).digest()).decode()


class Document(HTMLParser):
    """A document's inline scripts and styles, its <base href>s, and what a
    hash cannot allow."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.inline = {"script": [], "style": []}
        self.bases, self.problems, self.raw = [], [], None
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.handle_startendtag(tag, attrs)
        if tag in self.inline and not (tag == "script" and dict(attrs).get("src")):
            self.raw = (tag, [])

    def handle_startendtag(self, tag, attrs):
        for name, value in attrs:
            value = value or ""
            if name.startswith("on"):
                self.problems.append("an event handler <%s %s=...> (add a listener in the app)"
                                     % (tag, name))
            if name == "style":
                self.problems.append('a style attribute <%s style="%s"> (use a class)'
                                     % (tag, value))
            # Browsers drop spaces and controls around a URL, tabs and newlines within.
            if re.sub(r"[\x00-\x20]", "", value).lower().startswith("javascript:"):
                self.problems.append("a javascript: URL <%s %s=...> (use a button)" % (tag, name))
            if tag == "base" and name == "href":
                self.bases.append(value)

    def handle_data(self, data):
        if self.raw:
            self.raw[1].append(data)

    def handle_endtag(self, tag):
        if self.raw and tag == self.raw[0]:
            self.inline[tag].append("".join(self.raw[1]))
            self.raw = None


existing = re.compile(r'\n?[ \t]*<meta http-equiv="Content-Security-Policy"[^>]*>', re.I)
charset = re.compile(r'<meta charset="?[\w-]+"?\s*/?>', re.I)
documents = sorted(
    os.path.join(folder, name)
    for folder, _, names in os.walk(staging)
    for name in names
    if name.endswith(".html")
)
if not any(path == os.path.join(staging, "index.html") for path in documents):
    fail("no index.html in %s" % staging)
for path in documents:
    where = os.path.relpath(path, staging)
    # Read with universal newlines: the browser turns CR LF and CR into LF
    # before it parses (HTML Living Standard, "preprocessing the input
    # stream"), so the texts it hashes have LF only, as these do.
    text = existing.sub("", open(path, encoding="utf-8").read())
    doc = Document(text)
    if doc.problems:
        fail("%s has what no hash can allow: %s" % (where, "; ".join(doc.problems)))
    for href in doc.bases:
        url = urlsplit(href)
        if url.scheme or url.netloc:
            fail("%s has <base href=\"%s\">, a full URL: base-uri 'self' allows only the "
                 "page's own origin, so build with a path as --public-url" % (where, href))
    scripts = [sha256(s.encode()) for s in doc.inline["script"]]
    styles = [sha256(s.encode()) for s in doc.inline["style"]]
    policy = "; ".join([
        # Anything not named below (the wasm fetches: connect-src; the icon:
        # img-src; the manifest: manifest-src) only from the site itself.
        "default-src 'self'",
        # The build's inline scripts, by hash; 'wasm-unsafe-eval' lets them
        # compile the WebAssembly modules. No eval, no other inline script.
        " ".join(["script-src 'self' 'wasm-unsafe-eval'"] + list(dict.fromkeys(scripts))),
        # scene.css and app.css by hash: no other <style>, no style attribute.
        " ".join(["style-src 'self'"] + list(dict.fromkeys(styles))),
        # No plugins.
        "object-src 'none'",
        # A <base> injected into the page cannot send relative URLs elsewhere.
        "base-uri 'self'",
        # innerHTML and the other HTML and script sinks take Trusted Types
        # only, never a string.
        "require-trusted-types-for 'script'",
    ])
    # First in <head>, after <meta charset> (which must stay within the first
    # 1024 bytes): a policy governs only what the parser meets after it.
    meta = '<meta http-equiv="Content-Security-Policy" content="%s" />' % policy
    text, found = charset.subn(lambda m: m.group(0) + "\n    " + meta, text, count=1)
    if not found:
        fail("%s has no <meta charset> to put the policy after" % where)
    open(path, "w", encoding="utf-8").write(text)
print("csp.py: a Content Security Policy in %d documents" % len(documents))

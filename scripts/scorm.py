"""Packs a build of the lab made with `--public-url ./` (make scorm) as a
SCORM 1.2 content package: a zip with imsmanifest.xml at its root and one
SCO per section of the catalogue, which an LMS (Moodle, Canvas, Blackboard,
SCORM Cloud) imports without a server of ours. Everything the lab needs is
in the zip; nothing is fetched from anywhere else.

The manifest follows the SCORM 1.2 Content Aggregation Model (IMS Content
Packaging 1.1.2 with ADL's adlcp extensions): one organization whose items
are the sections, each the launch of a resource with
adlcp:scormtype="sco" at `index.html?sco=<section>` (src/shell/lms.rs reads
the parameter and talks to the LMS); every file of the lab is one shared
resource of adlcp:scormtype="asset" that each SCO depends on.

A build with a relative public URL writes `<base href="./" />` into every
document; each demo's own document, <section>/<slug>.html (demo-pages.py),
sits one folder down and gets `<base href="../" />` here, so a reload of a
demo's page inside the LMS finds the lab's files. (The app then spells its
addresses as those files: `platform::pages_are_files`.)

Usage: scorm.py SITE_DIR CATALOGUE_DIR ZIP  (run by `make scorm`).
"""
import os
import sys
import zipfile
from xml.sax.saxutils import escape, quoteattr

from catalogue import entries, sections

site, catalogue_dir, zip_path = sys.argv[1:4]


def fail(why):
    sys.exit("scorm.py: " + why)


RELATIVE_BASE = '<base href="./" />'
index = open(os.path.join(site, "index.html")).read()
if index.count(RELATIVE_BASE) != 1:
    fail("index.html should hold %s once: build with --public-url ./" % RELATIVE_BASE)

# A tour (the journey) is a page at the root, beside index.html: its
# <base href="./"> is already right, and it is no section's SCO.
demos = [(section, slug) for section, slug, _ in entries(catalogue_dir) if section]
for section, slug in demos:
    path = os.path.join(site, section, slug + ".html")
    page = open(path).read()
    if page.count(RELATIVE_BASE) != 1:
        fail("%s should hold %s once" % (path, RELATIVE_BASE))
    open(path, "w").write(page.replace(RELATIVE_BASE, '<base href="../" />'))

# A plain static host's fallback page; an LMS serves files only.
files = sorted(
    os.path.relpath(os.path.join(folder, name), site).replace(os.sep, "/")
    for folder, _, names in os.walk(site)
    for name in names
    if name != "404.html"
)
if "imsmanifest.xml" in files:
    fail("the build already has an imsmanifest.xml")

ids = [(section_id, title) for section_id, title in sections(catalogue_dir)]
if sorted(s for s, _ in ids) != sorted({s for s, _ in demos}):
    fail("the sections %s are not those of the demos %s" % (ids, sorted({s for s, _ in demos})))

items = "\n".join(
    '      <item identifier="item-%s" identifierref="sco-%s" isvisible="true">\n'
    "        <title>%s</title>\n"
    "      </item>" % (section_id, section_id, escape(title))
    for section_id, title in ids
)
scos = "\n".join(
    '    <resource identifier="sco-%s" type="webcontent" adlcp:scormtype="sco" href=%s>\n'
    '      <file href="index.html"/>\n'
    '      <dependency identifierref="lab"/>\n'
    "    </resource>" % (section_id, quoteattr("index.html?sco=" + section_id))
    for section_id, _ in ids
)
assets = "\n".join("      <file href=%s/>" % quoteattr(f) for f in files)
manifest = """<?xml version="1.0" encoding="UTF-8"?>
<manifest identifier="stack-lab" version="1.2"
  xmlns="http://www.imsproject.org/xsd/imscp_rootv1p1p2"
  xmlns:adlcp="http://www.adlnet.org/xsd/adlcp_rootv1p2"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xsi:schemaLocation="http://www.imsproject.org/xsd/imscp_rootv1p1p2 imscp_rootv1p1p2.xsd http://www.imsglobal.org/xsd/imsmd_rootv1p2p1 imsmd_rootv1p2p1.xsd http://www.adlnet.org/xsd/adlcp_rootv1p2 adlcp_rootv1p2.xsd">
  <metadata>
    <schema>ADL SCORM</schema>
    <schemaversion>1.2</schemaversion>
  </metadata>
  <organizations default="stack-lab">
    <organization identifier="stack-lab">
      <title>Stack Lab</title>
%s
    </organization>
  </organizations>
  <resources>
%s
    <resource identifier="lab" type="webcontent" adlcp:scormtype="asset">
%s
    </resource>
  </resources>
</manifest>
""" % (items, scos, assets)

os.makedirs(os.path.dirname(os.path.abspath(zip_path)), exist_ok=True)
with zipfile.ZipFile(zip_path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
    z.writestr("imsmanifest.xml", manifest)
    for f in files:
        z.write(os.path.join(site, f), f)
print("scorm.py: %s: %d SCOs, %d files, %.0f KiB" % (zip_path, len(ids), len(files) + 1, os.path.getsize(zip_path) / 1024))

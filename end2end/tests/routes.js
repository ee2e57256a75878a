// Every demo route (the journey's too), read from the catalogue's source (src/catalogue/*.rs, one
// `Demo { … }` literal a demo, as scripts/catalogue.py reads it), so a test
// that must visit every route visits a new demo without being told.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const folder = fileURLToPath(new URL('../../src/catalogue/', import.meta.url));

export function demoRoutes() {
  const routes = [];
  for (const file of readdirSync(folder).filter((f) => f.endsWith('.rs')).sort()) {
    const text = readFileSync(join(folder, file), 'utf8');
    // An entry in a list, or a list's only one, which rustfmt writes on the
    // list's line (`&[Demo {`), as scripts/catalogue.py reads them.
    for (const entry of text.matchAll(/(?:\n {4}|&\[)Demo \{\n[\s\S]*?\n *\}[,\]]/g)) {
      const section = entry[0].match(/\bsection: "(\w*)",/);
      const slug = entry[0].match(/\bslug: "([\w-]+)",/);
      // A tour (the journey) has no section: its page is `/<slug>`.
      if (section && slug) routes.push(section[1] ? `/${section[1]}/${slug[1]}` : `/${slug[1]}`);
    }
  }
  return routes;
}

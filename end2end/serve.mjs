// A small static server for dist/ with SPA fallback: unknown paths get
// index.html, as a static host configured for a single-page app would, and
// /a/b gets a/b.html where there is one, as GitHub Pages does.
// Usage: node serve.mjs [port] [base]   (base: a sub-path such as /labs/stack)
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL(process.env.DIST_DIR ?? '../dist/', import.meta.url));
const port = Number(process.argv[2] ?? process.env.PORT ?? 4173);
const base = (process.argv[3] ?? '').replace(/\/$/, '');
const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.svg': 'image/svg+xml', '.webmanifest': 'application/manifest+json',
  '.json': 'application/json', '.png': 'image/png', '.woff2': 'font/woff2',
};

createServer(async (req, res) => {
  // The raw request path: `new URL('//nic/napi', base)` would read it as a
  // host. A malformed escape is answered with the app, as any unknown path.
  let path = req.url.split(/[?#]/)[0];
  try { path = decodeURIComponent(path); } catch { path = '/'; }
  if (base && !path.startsWith(base)) { res.writeHead(404).end('outside the base path'); return; }
  path = path.slice(base.length) || '/';
  const file = normalize(join(root, path));
  let target = join(root, 'index.html');
  if (file.startsWith(root)) {
    // The file itself, else <path>.html (a demo's own entry document, as
    // GitHub Pages serves /cpu/tlb from cpu/tlb.html), else the app.
    for (const candidate of [file, `${file}.html`]) {
      try {
        if ((await stat(candidate)).isFile()) { target = candidate; break; }
      } catch { /* the next candidate */ }
    }
  }
  let body;
  try { body = await readFile(target); } catch { res.writeHead(404).end('not built'); return; }
  res.writeHead(200, { 'content-type': types[extname(target)] ?? 'application/octet-stream', 'cache-control': 'no-store' });
  res.end(body);
}).listen(port, '127.0.0.1', () => console.log(`serving ${root} at http://127.0.0.1:${port}${base}/`));

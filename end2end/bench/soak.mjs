// Soak (not a test; part of `make bench`): every demo in the catalogue plays
// at the top autoplay speed for ten minutes, all at once, each in its own
// browser context, and its wasm memory is read every 30 s. A step's cost in
// memory must be bounded, so a demo left playing must not keep growing:
// budget ≤ 16 MiB at the end, and flat over the second half (at most one
// 64 KiB page more at the end than at the half, for a late allocator
// rounding).
// Usage: node bench/soak.mjs [minutes] [only]   (serves ../dist itself; `only`
// keeps the demos whose path contains one of its comma-separated parts)
import { launch, serve } from './load.mjs';

const minutes = Number(process.argv[2] ?? 10);
const only = (process.argv[3] ?? '').split(',');
const port = 4197;
const BUDGET = 16 * 1024 * 1024;
const PAGE = 64 * 1024;
const SAMPLE_MS = 30_000;

const server = await serve(port, '../dist/', 'lab: run make build first');
const browser = await launch();
const base = `http://127.0.0.1:${port}`;

const home = await browser.newPage();
await home.goto(`${base}/`);
await home.locator('.card a').first().waitFor();
const paths = (await home.locator('.card a').evaluateAll((as) => as.map((a) => new URL(a.href).pathname)))
  .filter((p) => only.some((part) => p.includes(part)));
await home.close();

// Every wasm memory the page's modules export, recorded as they are
// instantiated (an init script wraps the constructors), so the product needs
// no test hook.
const recordMemories = () => {
  const memories = new Set();
  window.__wasmBytes = () => [...memories].reduce((n, m) => n + m.buffer.byteLength, 0);
  const keep = (instance) => {
    for (const value of Object.values(instance.exports)) {
      if (value instanceof WebAssembly.Memory) memories.add(value);
    }
    return instance;
  };
  const Instance = WebAssembly.Instance;
  WebAssembly.Instance = new Proxy(Instance, { construct: (T, args) => keep(new T(...args)) });
  for (const name of ['instantiate', 'instantiateStreaming']) {
    const original = WebAssembly[name];
    WebAssembly[name] = (...args) => original(...args).then((r) => {
      keep(r instanceof Instance ? r : r.instance);
      return r;
    });
  }
};

const wasmBytes = (page) => page.evaluate(() => window.__wasmBytes());

async function open(path) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addInitScript(recordMemories);
  await page.goto(`${base}${path}`);
  await page.getByTestId('step').waitFor();
  const speed = page.getByTestId('speed');
  const values = await speed.locator('option').evaluateAll((os) => os.map((o) => o.value));
  await speed.selectOption(values[values.length - 1]);
  await page.getByTestId('play').click();
  return { path, page, samples: [await wasmBytes(page)] };
}

const demos = [];
for (const path of paths) demos.push(await open(path));
console.log(`soak: ${demos.length} demos playing at the top speed for ${minutes} min`);

const rounds = Math.max(2, Math.round((minutes * 60_000) / SAMPLE_MS));
for (let r = 0; r < rounds; r += 1) {
  await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
  for (const d of demos) d.samples.push(await wasmBytes(d.page));
}

const mib = (b) => (b / 1024 / 1024).toFixed(1);
let failed = 0;
for (const d of demos) {
  const step = await d.page.getByTestId('step-count').textContent().catch(() => '?');
  const s = d.samples;
  const half = s[Math.floor(s.length / 2)];
  const end = s[s.length - 1];
  const peak = Math.max(...s);
  const ok = end <= BUDGET && peak <= BUDGET && end - half <= PAGE;
  if (!ok) failed += 1;
  console.log(`${d.path.padEnd(26)} ${mib(s[0])} → ${mib(half)} (half) → ${mib(end)} MiB (peak ${mib(peak)}), `
    + `${String(step).trim()} · ${ok ? 'ok' : 'OVER'}`);
}
console.log(`soak: ${demos.length - failed} of ${demos.length} demos ≤ ${mib(BUDGET)} MiB and flat over the second half`);
await browser.close();
server.kill();
process.exit(failed ? 1 : 0);

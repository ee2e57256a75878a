// A/B of two or more builds of the lab (not a test): navigation →
// interactive of one demo page, each build loaded `runs` times, the order
// turning every round (A B C, B C A, C A B), each round right after a load
// of the bare counter. One bench
// run's per-demo median (10 loads) moves by ±10 ms between runs, more than
// most start-up changes gain; alternating 40 loads each measured a 7 ms change
// reliably.
// Usage: node bench/ab.mjs DIST_A DIST_B [DIST_C…] [runs=40] [path=/cpu/tlb]
//   (DIST_*: built sites, e.g. a copy of ../dist made before a change)
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { launch, loadTime, median, serve, stages } from './load.mjs';

const args = process.argv.slice(2);
const isDir = (x) => existsSync(x) && statSync(x).isDirectory();
const dirs = args.filter(isDir).map((d) => `${resolve(d)}/`);
const runs = Number(args.find((x) => !isDir(x) && /^\d+$/.test(x)) ?? 40);
const path = args.find((x) => !isDir(x) && x.startsWith('/')) ?? '/cpu/tlb';
if (dirs.length < 2) throw new Error('usage: node bench/ab.mjs DIST_A DIST_B [DIST_C…] [runs] [path]');
const builds = dirs.map((dir, i) => ({ name: String.fromCharCode(65 + i), dir, port: 4196 - i, ms: [], own: [], stages: [] }));
const counter = { name: 'counter', ms: [] };
const servers = [
  await serve(4198, '../dist-counter/', 'counter: run make build-counter'),
  ...await Promise.all(builds.map((x) => serve(x.port, x.dir))),
];
const browser = await launch();
for (let i = 0; i < runs; i += 1) {
  // Every build goes first as often as last: the order turns each round.
  const order = builds.map((_, j) => builds[(i + j) % builds.length]);
  for (const [x, url] of [[counter, 'http://127.0.0.1:4198/'], ...order.map((x) => [x, `http://127.0.0.1:${x.port}${path}`])]) {
    const { context, page, ms } = await loadTime(browser, url);
    // The app's own work: a lab build's marks (the counter's page has none).
    const parts = x.own && (await stages(page));
    await context.close();
    if (i > 0) { // the first round warms the browser up
      x.ms.push(ms);
      x.own?.push(parts.reduce((a, b) => a + b));
      x.stages?.push(parts);
    }
  }
}
for (const x of [counter, ...builds]) {
  console.log(`${x.name.padEnd(8)} ${median(x.ms).toFixed(0).padStart(4)} ms median of ${x.ms.length}${x.dir ? ` (${x.dir})` : ''}`);
}
// Paired too: the median of each round's difference, which a slow spell of
// the machine (it moves every load of a round alike) shifts far less.
const base = median(builds[0].ms);
for (const x of builds.slice(1)) {
  const paired = median(x.ms.map((ms, i) => ms - builds[0].ms[i]));
  console.log(`${x.name} − A: ${(median(x.ms) - base).toFixed(1)} ms on ${path} (paired: ${paired.toFixed(1)} ms)`);
}
// The app's own start-up work alone (see bench.mjs): without the network,
// the document and the browser's start, a change to the app shows clearly.
// Its stages (see bench.mjs) say where a change took effect.
for (const x of builds) {
  const stage = (k) => median(x.stages.map((s) => s[k])).toFixed(1);
  console.log(`${x.name} app's own work: median ${median(x.own).toFixed(1)} ms (open ${stage(0)}, frame ${stage(1)}, page ${stage(2)})`);
}
await browser.close();
for (const s of servers) s.kill();

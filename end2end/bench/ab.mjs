// A/B of two builds of the lab (not a test): navigation → interactive of one
// demo page, each build loaded `runs` times, in alternating order (A then B,
// then B then A), each pair right after a load of the bare counter. One bench
// run's per-demo median (10 loads) moves by ±10 ms between runs, more than
// most start-up changes gain; alternating 40 loads each measured a 7 ms change
// reliably.
// Usage: node bench/ab.mjs DIST_A DIST_B [runs=40] [path=/cpu/tlb]
//   (DIST_*: built sites, e.g. a copy of ../dist made before a change)
import { resolve } from 'node:path';
import { launch, loadTime, median, serve } from './load.mjs';

const [a, b] = process.argv.slice(2, 4).map((d) => `${resolve(d)}/`);
if (!a || !b) throw new Error('usage: node bench/ab.mjs DIST_A DIST_B [runs] [path]');
const runs = Number(process.argv[4] ?? 40);
const path = process.argv[5] ?? '/cpu/tlb';
const builds = [{ name: 'A', dir: a, port: 4196, ms: [] }, { name: 'B', dir: b, port: 4197, ms: [] }];
const counter = { name: 'counter', ms: [] };
const servers = [
  await serve(4198, '../dist-counter/', 'counter: run make build-counter'),
  ...await Promise.all(builds.map((x) => serve(x.port, x.dir))),
];
const browser = await launch();
for (let i = 0; i < runs; i += 1) {
  const order = i % 2 === 0 ? builds : [...builds].reverse();
  for (const [x, url] of [[counter, 'http://127.0.0.1:4198/'], ...order.map((x) => [x, `http://127.0.0.1:${x.port}${path}`])]) {
    const { context, ms } = await loadTime(browser, url);
    await context.close();
    if (i > 0) x.ms.push(ms); // the first round warms the browser up
  }
}
for (const x of [counter, ...builds]) {
  console.log(`${x.name.padEnd(8)} ${median(x.ms).toFixed(0).padStart(4)} ms median of ${x.ms.length}${x.dir ? ` (${x.dir})` : ''}`);
}
const [ma, mb] = builds.map((x) => median(x.ms));
console.log(`B − A: ${(mb - ma).toFixed(1)} ms on ${path}`);
await browser.close();
for (const s of servers) s.kill();

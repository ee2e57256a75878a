// Benchmark (not a test): medians over several runs in headless Chromium of
//  - navigation → interactive demo (the Step button is in the DOM and wired),
//  - a Step click → the updated DOM (step counter changed).
// Usage: node bench/bench.mjs [runs]   (serves ../dist itself on port 4199)
import { spawn } from 'node:child_process';
import { chromium } from '@playwright/test';
import { chromiumArgs } from '../playwright.config.js';

const runs = Number(process.argv[2] ?? 15);
const port = 4199;
const server = spawn('node', ['serve.mjs', String(port)], { stdio: 'ignore' });
await new Promise((r) => setTimeout(r, 500));

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: chromiumArgs });

const demos = [
  // [path, a setup action that makes Step do something]
  ['/nic/descriptor-ring', async (page) => {
    await page.getByTestId('mode-tx').check();
    for (let i = 0; i < 3; i += 1) await page.getByTestId('post').click();
    await page.getByTestId('barrier').click();
    await page.getByTestId('doorbell').click();
  }],
  ['/nic/napi', async (page) => {
    await page.getByTestId('burst-size').fill('64');
    await page.getByTestId('send-burst').click();
  }],
  ['/nic/send-path', async () => {}],
  ['/nic/busy-poll', async () => {}],
  ['/nic/mmio', async () => {}],
  ['/nic/cut-through', async () => {}],
  ['/nic/iommu', async () => {}],
  ['/nic/rdma-qp', async (page) => {
    await page.getByTestId('post-send').click();
  }],
];

for (const [path, setup] of demos) {
  const loads = [];
  const steps = [];
  for (let i = 0; i < runs; i += 1) {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`http://127.0.0.1:${port}${path}`, { waitUntil: 'commit' });
    await page.getByTestId('step').waitFor();
    loads.push(await page.evaluate(() => performance.now()));
    await setup(page);
    steps.push(await page.evaluate(() => new Promise((resolve) => {
      const counter = document.querySelector('[data-testid="step-count"]');
      const before = counter.textContent;
      const t0 = performance.now();
      const obs = new MutationObserver(() => {
        if (counter.textContent !== before) { obs.disconnect(); resolve(performance.now() - t0); }
      });
      obs.observe(counter, { childList: true, characterData: true, subtree: true });
      document.querySelector('[data-testid="step"]').click();
    })));
    await context.close();
  }
  console.log(`${path}: navigation→interactive median ${median(loads).toFixed(0)} ms; `
    + `Step→DOM median ${median(steps).toFixed(2)} ms (${runs} runs)`);
}
await browser.close();
server.kill();

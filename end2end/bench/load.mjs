// What bench.mjs and ab.mjs share: static servers for built sites, and one
// page load in a fresh browser context, timed from navigation until the page
// is interactive (the counter's button or a demo's Step button exists).
import { spawn } from 'node:child_process';
import { chromium } from '@playwright/test';
import { chromiumArgs } from '../playwright.config.js';

export const sorted = (xs) => [...xs].sort((a, b) => a - b);
export const median = (xs) => sorted(xs)[Math.floor(xs.length / 2)];

export const launch = () => chromium.launch({ executablePath: '/usr/bin/chromium', args: chromiumArgs });

// Every server this process started goes when it exits, even on an error.
const started = [];
process.on('exit', () => started.forEach((s) => s.kill()));

/** Serves `dir` (relative to end2end/, with a trailing slash) on `port`, once it answers. */
export async function serve(port, dir, hint) {
  const server = spawn('node', ['serve.mjs', String(port)], { stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, DIST_DIR: dir } });
  // Up once it says so. A server left over on the port (a crashed run)
  // would answer too, with another build: this one then exits, and so do we.
  const up = await new Promise((resolve) => {
    server.stdout.once('data', () => resolve(true));
    server.once('exit', () => resolve(false));
    setTimeout(() => resolve(false), 10000);
  });
  started.push(server);
  if (!up) {
    server.kill();
    throw new Error(`http://127.0.0.1:${port}/ did not come up for ${hint ?? dir} (is the port taken?)`);
  }
  return server;
}

// What the probe logs when the page is interactive.
const READY = 'bench: interactive';

// Records when the page is first interactive, and every long task.
const probe = (READY) => {
  window.__longest = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__longest = Math.max(window.__longest, e.duration);
  }).observe({ type: 'longtask', buffered: true });
  new MutationObserver((_, obs) => {
    if (document.querySelector('[data-testid="step"]')) {
      window.__ready = performance.now();
      obs.disconnect();
      console.log(READY);
    }
  }).observe(document, { childList: true, subtree: true });
};

/** Loads `url` in a fresh context; `ms` is navigation → interactive. */
export async function loadTime(browser, url) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addInitScript(probe, READY);
  // Waits for the probe's console message, not with waitForFunction: that
  // polls through Playwright's injected script (~330 KB of JS), which it
  // compiles and runs on the page's main thread mid-load (15-30 ms, seen in
  // a Chrome trace), delaying whatever page is being measured.
  const ready = page.waitForEvent('console', (m) => m.text() === READY);
  await page.goto(url, { waitUntil: 'commit' });
  await ready;
  const ms = await page.evaluate(() => window.__ready);
  return { context, page, ms };
}

/**
 * When the interactive page was first on screen: its first contentful paint
 * (nothing contentful is drawn before the app draws, on the counter's page or
 * the lab's), or the interactive time should that come later. Call it right
 * after `loadTime`.
 */
export async function paintedTime(page) {
  return page.evaluate(() => new Promise((resolve) => {
    new PerformanceObserver((list, obs) => {
      const fcp = list.getEntries().find((e) => e.name === 'first-contentful-paint');
      if (fcp) {
        obs.disconnect();
        resolve(Math.max(window.__ready, fcp.startTime));
      }
    }).observe({ type: 'paint', buffered: true });
  }));
}

/**
 * The app's own start-up work on a loaded demo page, in ms, from its marks
 * (src/platform.rs `mark`): [until the demo opened (the shell, the demo's
 * module, its model), its first frame (scene, controls), the page drawn
 * (elements, the DOM)].
 */
export const stages = (page) => page.evaluate(() => {
  const at = (name) => performance.getEntriesByName(`stack-lab:${name}`)[0]?.startTime ?? NaN;
  const t = ['app-start', 'demo-open', 'demo-frame', 'demo-drawn'].map(at);
  return [t[1] - t[0], t[2] - t[1], t[3] - t[2]];
});

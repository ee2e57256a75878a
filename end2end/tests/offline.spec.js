// The lab offline: its service worker (scripts/sw.js, registered by
// scripts/offline.js) and the home page's "Make every demo available
// offline". Served by this file's own server, which can stop answering
// (offline for real, not only as the browser pretends) and can serve a new
// build's worker.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test, expect } from './fixtures.js';

test.use({ serviceWorkers: 'allow' });

const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const types = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm', '.svg': 'image/svg+xml', '.webmanifest': 'application/manifest+json', '.css': 'text/css' };

/** The built site, as serve.mjs serves it; `next` makes its sw.js a new build's. */
async function lab() {
  const site = { next: false, sockets: new Set() };
  site.server = createServer(async (req, res) => {
    const path = decodeURIComponent(req.url.split(/[?#]/)[0]);
    let target = join(dist, 'index.html');
    for (const candidate of [normalize(join(dist, path)), normalize(join(dist, `${path}.html`))]) {
      if (candidate.startsWith(dist) && (await stat(candidate).catch(() => null))?.isFile()) { target = candidate; break; }
    }
    let body = await readFile(target);
    if (site.next && target.endsWith('sw.js')) body = String(body).replace(/const BUILD = "[0-9a-f]+";/, 'const BUILD = "next-build";');
    res.writeHead(200, { 'content-type': types[extname(target)] ?? 'application/octet-stream', 'cache-control': 'no-store' }).end(body);
  });
  site.server.on('connection', (s) => { site.sockets.add(s); s.on('close', () => site.sockets.delete(s)); });
  await new Promise((resolve) => site.server.listen(0, '127.0.0.1', resolve));
  site.url = `http://127.0.0.1:${site.server.address().port}`;
  /** Stops answering, and drops the connections the browser kept open. */
  site.stop = () => new Promise((resolve) => { site.server.close(resolve); site.sockets.forEach((s) => s.destroy()); });
  return site;
}

/** Waits until a service worker controls the page. */
const controlled = (page) => page.waitForFunction(() => navigator.serviceWorker.controller !== null);

test('every demo made available offline opens and steps with no network, even one never opened', async ({ page, context }) => {
  const site = await lab();
  await page.goto(`${site.url}/`);
  await controlled(page);
  await page.getByTestId('offline-all').click();
  await expect(page.getByTestId('offline-status')).toHaveText(/^Every demo is available offline: \d+ files kept in this browser\.$/);
  await site.stop();
  await context.setOffline(true);

  await page.goto(`${site.url}/memory/spsc`);
  await expect(page.getByTestId('step-count')).toHaveText('step 0');
  await page.getByTestId('step').click();
  await expect(page.getByTestId('step-count')).toHaveText('step 1');
  // Another section's demo, its chunk, and the lesson panel's module.
  await page.goto(`${site.url}/net/handshake?lesson=1`);
  await expect(page.getByTestId('lesson-title')).toBeVisible();
  const at = Number((await page.getByTestId('step-count').textContent()).replace('step ', ''));
  await page.getByTestId('step').click();
  await expect(page.getByTestId('step-count')).toHaveText(`step ${at + 1}`);
  // The home page says what is kept.
  await page.goto(`${site.url}/`);
  await expect(page.getByTestId('offline-status')).toHaveText('Every demo is available offline in this browser.');
});

test.describe('offline, a demo never opened', () => {
  // Its module cannot be fetched: the browser logs the failed requests.
  test.use({ allowConsoleErrors: true });

  test('a demo opened once opens again offline; one never opened says it could not be fetched', async ({ page, context }) => {
    const site = await lab();
    await page.goto(`${site.url}/cpu/mesi`);
    await controlled(page);
    // Opened under the worker: its module is kept on first use.
    await page.goto(`${site.url}/cpu/tlb`);
    await expect(page.getByTestId('step')).toBeVisible();
    await site.stop();
    await context.setOffline(true);
    await page.goto(`${site.url}/cpu/tlb`);
    await expect(page.getByTestId('step')).toBeVisible();
    await page.goto(`${site.url}/nic/napi`);
    await expect(page.getByTestId('demo-failed')).toBeVisible();
  });
});

test('a new build is offered with "A new version is ready", and Reload moves to it', async ({ page }) => {
  const site = await lab();
  await page.goto(`${site.url}/cpu/mesi`);
  await controlled(page);
  await expect(page.locator('#update')).toBeHidden();
  const build = () => page.evaluate(() => window.stackLabOffline.status().then((s) => s.build));
  const first = await build();
  expect(first).toMatch(/^[0-9a-f]{16}$/);

  site.next = true;
  await page.evaluate(() => navigator.serviceWorker.getRegistration().then((r) => r.update()));
  await expect(page.locator('#update')).toBeVisible();
  await expect(page.locator('#update')).toContainText('A new version of Stack Lab is ready.');
  // Until the learner says so, the page stays with its build.
  expect(await build()).toBe(first);
  await page.locator('#update-reload').click();
  // Asked while the page reloads, the old document is gone: ask again.
  await expect.poll(() => build().catch(() => 'reloading')).toBe('next-build');
  await expect(page.locator('#update')).toBeHidden();
  await expect(page.getByTestId('step')).toBeVisible();
  // The old build's cache is gone with it.
  expect(await page.evaluate(() => caches.keys())).toEqual(['stack-lab-next-build']);
  await site.stop();
});

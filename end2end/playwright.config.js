import { defineConfig } from '@playwright/test';

// Debian's Chromium, never a downloaded one. No retries: a flaky test is a bug.
export const chromiumArgs = [
  '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run',
];

// E2E_PORT lets several checkouts run their suites side by side.
const port = Number(process.env.E2E_PORT ?? 4173);
// The same site built for a sub-path (make build-subpath → dist-subpath/), served there.
const subPort = port + 100;
export const subPath = '/labs/stack';

export default defineConfig({
  testDir: './tests',
  retries: 0,
  workers: 2,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: { executablePath: '/usr/bin/chromium', args: chromiumArgs },
    trace: 'off',
    // A first visit has no service worker; tests of anything else run as
    // one (a worker installing mid-test would fetch beside the page).
    // tests/offline.spec.js allows it.
    serviceWorkers: 'block',
  },
  projects: [
    { name: 'root', testIgnore: /subpath\.spec/ },
    { name: 'subpath', testMatch: /subpath\.spec/, use: { baseURL: `http://127.0.0.1:${subPort}${subPath}/` } },
  ],
  webServer: [
    { command: `node serve.mjs ${port}`, url: `http://127.0.0.1:${port}/`, reuseExistingServer: !process.env.CI },
    {
      command: `node serve.mjs ${subPort} ${subPath}`,
      url: `http://127.0.0.1:${subPort}${subPath}/`,
      env: { DIST_DIR: '../dist-subpath/' },
      reuseExistingServer: !process.env.CI,
    },
  ],
});

// Every test's page records console errors, warnings and uncaught exceptions;
// unless a test says it expects a crash, any of them fails the test.
import { test as base, expect } from '@playwright/test';

export const test = base.extend({
  allowConsoleErrors: [false, { option: true }],
  consoleProblems: [async ({ page, allowConsoleErrors }, use) => {
    const problems = [];
    page.on('console', (msg) => {
      // Playwright's own word when it blocks the lab's service worker
      // (serviceWorkers: 'block', playwright.config.js), not the page's.
      if (msg.text() === 'Service Worker registration blocked by Playwright') return;
      if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`${msg.type()}: ${msg.text()}`);
    });
    page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
    await use(problems);
    if (!allowConsoleErrors) expect(problems, 'browser console must stay clean').toEqual([]);
  }, { auto: true }],
});

export { expect };

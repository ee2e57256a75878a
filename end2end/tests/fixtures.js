// Every test's page records console errors, warnings and uncaught exceptions;
// unless a test says it expects a crash, any of them fails the test.
import { test as base, expect } from '@playwright/test';

export const test = base.extend({
  allowConsoleErrors: [false, { option: true }],
  consoleProblems: [async ({ page, allowConsoleErrors }, use) => {
    const problems = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error' || msg.type() === 'warning') problems.push(`${msg.type()}: ${msg.text()}`);
    });
    page.on('pageerror', (err) => problems.push(`pageerror: ${err.message}`));
    await use(problems);
    if (!allowConsoleErrors) expect(problems, 'browser console must stay clean').toEqual([]);
  }, { auto: true }],
});

export { expect };

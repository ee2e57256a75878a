import { test, expect } from './fixtures.js';
import AxeBuilder from '@axe-core/playwright';
import { demoRoutes } from './routes.js';

// axe-core, pinned to its newest release in package-lock.json, with every rule
// it has (none left out by tag), on every route: the catalogue, not-found, an
// embedded demo (and one whose picture has several figures, one shown), a
// demo in presenter mode and each demo, before and after a Step.
const serious = (results) => results.violations
  .filter((v) => ['serious', 'critical'].includes(v.impact))
  .map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`);

const demos = demoRoutes();

test('the route list is the whole catalogue', () => {
  expect(demos.length).toBeGreaterThanOrEqual(29);
  expect(demos).toEqual(expect.arrayContaining(['/nic/descriptor-ring', '/net/allreduce']));
});

for (const path of ['/', '/nic/no-such-demo', '/nic/descriptor-ring?embed=1', '/nic/busy-poll?embed=1&figure=2', '/cpu/mesi?present=1', ...demos]) {
  test(`axe finds no serious or critical violation on ${path}`, async ({ page }) => {
    await page.goto(path);
    await expect(page.locator('#app-root h1').first()).toBeVisible();
    const step = page.getByTestId('step');
    const isDemo = await page.getByTestId('demo').count() > 0;
    if (isDemo) await expect(step).toBeVisible();
    expect(serious(await new AxeBuilder({ page }).analyze())).toEqual([]);
    if (isDemo && await step.isEnabled()) {
      const before = await page.getByTestId('narration-latest').textContent();
      await step.click();
      await expect(page.getByTestId('narration-latest')).not.toHaveText(before);
      expect(serious(await new AxeBuilder({ page }).analyze())).toEqual([]);
    }
  });
}

test('label-content-name-mismatch is among the rules run', async ({ page }) => {
  await page.goto('/memory/cas');
  await expect(page.getByTestId('step')).toBeVisible();
  const results = await new AxeBuilder({ page }).analyze();
  const ran = [...results.passes, ...results.violations, ...results.incomplete, ...results.inapplicable]
    .map((r) => r.id);
  expect(ran).toContain('label-content-name-mismatch');
  expect(results.testEngine.version).toBe('4.14.1');
});

test('narration is announced through a polite live region', async ({ page }) => {
  await page.goto('/nic/napi');
  await expect(page.getByTestId('narration-latest')).toHaveAttribute('aria-live', 'polite');
});

import { test, expect } from './fixtures.js';
import AxeBuilder from '@axe-core/playwright';

for (const path of ['/', '/nic/descriptor-ring', '/nic/napi', '/nic/descriptor-ring?embed=1']) {
  test(`axe finds no serious or critical violation on ${path}`, async ({ page }) => {
    await page.goto(path);
    await expect(page.locator('#app-root h1').first()).toBeVisible();
    const results = await new AxeBuilder({ page }).analyze();
    const bad = results.violations.filter((v) => ['serious', 'critical'].includes(v.impact));
    expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
  });
}

test('narration is announced through a polite live region', async ({ page }) => {
  await page.goto('/nic/napi');
  await expect(page.getByTestId('narration-latest')).toHaveAttribute('aria-live', 'polite');
});

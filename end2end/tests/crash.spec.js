import { test, expect } from './fixtures.js';

test.use({ allowConsoleErrors: true });

test('a panic shows the recovery panel, and its reset reopens the demo', async ({ page }) => {
  await page.goto('/nic/napi?debug=panic');
  await expect(page.locator('#crash')).toBeVisible();
  await expect(page.locator('#crash-detail')).toContainText('deliberate panic');
  await page.getByRole('link', { name: 'Reset this demo' }).click();
  await expect(page).toHaveURL(/\/nic\/napi$/);
  await expect(page.getByTestId('demo')).toBeVisible();
  await expect(page.locator('#crash')).toBeHidden();
});

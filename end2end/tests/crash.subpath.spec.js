// The crash panel. `?debug=panic` exists only in the tests' build (feature
// test-hooks: the sub-path build, served under /labs/stack/); the public build
// ignores it (public-hooks.spec.js).
import { test, expect } from './fixtures.js';
import { subPath } from '../playwright.config.js';

test.use({ allowConsoleErrors: true });

test('a panic shows the recovery panel, and its reset reopens the demo', async ({ page }) => {
  await page.goto('nic/napi?debug=panic');
  await expect(page.locator('#crash')).toBeVisible();
  await expect(page.locator('#crash-detail')).toContainText('deliberate panic');
  await page.getByRole('link', { name: 'Reset this demo' }).click();
  await expect(page).toHaveURL(/\/labs\/stack\/nic\/napi$/);
  await expect(page.getByTestId('demo')).toBeVisible();
  await expect(page.locator('#crash')).toBeHidden();
});

// A path that starts with two slashes reads, as a link, as another host
// (`//nic/napi` is http://nic/napi): the page must correct its address and
// build every link of its own from the parsed route.
for (const raw of ['//nic/napi', '/nic//napi/', '///nic/napi']) {
  test(`a ${raw} address is corrected, and the crash panel's reset stays on this host`, async ({ page, baseURL }) => {
    const origin = new URL(baseURL).origin;
    await page.goto(`${origin}${subPath}${raw}?debug=panic`);
    await expect(page.locator('#crash')).toBeVisible();
    await expect(page).toHaveURL(`${origin}${subPath}/nic/napi?debug=panic`);
    await expect(page.locator('#crash-reset')).toHaveAttribute('href', `${subPath}/nic/napi`);
    await page.getByRole('link', { name: 'Reset this demo' }).click();
    await expect(page).toHaveURL(`${origin}${subPath}/nic/napi`);
    await expect(page.getByTestId('demo')).toBeVisible();
  });
}

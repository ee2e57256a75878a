// The site built with --public-url /labs/stack/ and served only under that path:
// assets, links, deep links and share links must all stay inside it.
import { test, expect } from './fixtures.js';

test('under a sub-path, the catalogue, deep links and share links all work', async ({ page }) => {
  await page.goto('./');
  await expect(page.getByTestId('card-napi')).toHaveAttribute('href', '/labs/stack/nic/napi');
  await page.getByTestId('card-napi').click();
  await expect(page).toHaveURL(/\/labs\/stack\/nic\/napi$/);
  await page.getByTestId('send-burst').click();
  await expect(page.getByTestId('fig-irqs').locator('dd')).toHaveText('1');

  await page.goto('nic/descriptor-ring');
  await page.getByTestId('post').click();
  await page.getByTestId('copy-link').click();
  const link = await page.getByTestId('share-url').inputValue();
  expect(link).toContain('/labs/stack/nic/descriptor-ring?s=v1.');
  await page.goto(link);
  await expect(page.getByTestId('desc-0')).toHaveAttribute('data-state', 'POSTED');
  await expect(page.locator('.brand')).toHaveAttribute('href', '/labs/stack/');
});

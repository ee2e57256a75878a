// The public build has no test hooks, and answers a page's file name.
import { test, expect } from './fixtures.js';

test('?debug=panic does nothing on the public site', async ({ page }) => {
  await page.goto('/nic/napi?debug=panic');
  const latest = page.getByTestId('narration-latest');
  await expect(latest).not.toHaveText('');
  const before = await latest.textContent();
  // A step is answered after the tasks that follow the page's first draw,
  // where the hook's panic would have run.
  await page.getByTestId('step').click();
  await expect(latest).not.toHaveText(before);
  await expect(page.locator('#crash')).toBeHidden();
  await expect(page.getByTestId('demo')).toBeVisible();
});

for (const [file, path, id] of [['/index.html', '/', 'card-napi'], ['/nic/napi.html', '/nic/napi', 'step']]) {
  test(`${file} opens the page it names, at its one address`, async ({ page, baseURL }) => {
    await page.goto(file);
    await expect(page.getByTestId(id)).toBeVisible();
    await expect(page).toHaveURL(`${baseURL}${path}`);
    await expect(page.getByText('No such page')).toHaveCount(0);
  });
}

import { test, expect } from './fixtures.js';
import { HomePage } from '../pages/home-page.js';

test('home page lists the seven sections and links to every demo', async ({ page }) => {
  const home = new HomePage(page);
  await home.open();
  await expect(page).toHaveTitle(/Stack Lab/);
  for (const id of ['nic', 'host', 'memory', 'cpu', 'net', 'fabric', 'gpu']) {
    await expect(page.getByTestId(`section-${id}`)).toBeVisible();
  }
  const paths = await home.demoPaths();
  expect(paths).toEqual(expect.arrayContaining(['/nic/descriptor-ring', '/nic/napi']));
});

test('every catalogue route loads directly, with its title and no console errors', async ({ page }) => {
  const home = new HomePage(page);
  await home.open();
  const entries = await home.cards.evaluateAll((links) =>
    links.map((a) => ({ path: new URL(a.href).pathname, title: a.querySelector('h3').textContent })));
  expect(entries.length).toBeGreaterThanOrEqual(2);
  for (const { path, title } of entries) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page).toHaveTitle(new RegExp(title.replace(/[()]/g, '\\$&')));
    await expect(page.getByTestId('narration-latest')).not.toBeEmpty();
  }
});

test('a card navigates to its demo in the app', async ({ page }) => {
  const home = new HomePage(page);
  await home.open();
  await page.getByTestId('card-napi').click();
  await expect(page).toHaveURL(/\/nic\/napi$/);
  await expect(page.getByRole('heading', { level: 1, name: 'NAPI poll loop' })).toBeVisible();
});

test('an unknown demo shows a not-found page with a way home', async ({ page }) => {
  await page.goto('/nic/no-such-demo');
  await expect(page.getByTestId('not-found')).toBeVisible();
  await page.getByRole('link', { name: 'Back to the catalogue' }).click();
  await expect(page.getByTestId('section-nic')).toBeVisible();
});

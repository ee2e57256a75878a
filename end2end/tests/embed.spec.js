import { test, expect } from './fixtures.js';
import { RingPage } from '../pages/ring-page.js';

test('embed mode shows only the demo and does not take focus', async ({ page }) => {
  const ring = new RingPage(page);
  await ring.open('?embed=1');
  await expect(page.getByTestId('embed')).toBeVisible();
  await expect(page.locator('.site-header')).toHaveCount(0);
  await expect(page.locator('.site-footer')).toHaveCount(0);
  await expect(page.getByTestId('copy-link')).toHaveCount(0);
  expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
});

test('an embedded demo fits 800×500 and its "Open in Stack Lab" link keeps the state', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 500 });
  const ring = new RingPage(page);
  await ring.open('?embed=1');
  await ring.post();
  await ring.barrier();
  const open = page.getByTestId('open-in-lab');
  await expect(open).toHaveAttribute('target', '_blank');
  const href = await open.getAttribute('href');
  expect(href).not.toContain('embed');
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(800);
  await expect(page.getByTestId('step')).toBeInViewport();

  await page.goto(href);
  await expect(page.locator('.site-header')).toBeVisible();
  await ring.expectDescriptor(0, 'POSTED');
  await ring.expectFigure('pending', 0);
});

import { test, expect } from './fixtures.js';
import { demoRoutes } from './routes.js';
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

test('in an 800×500 frame every demo shows its first figure whole, and Step', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 500 });
  const problems = [];
  for (const path of demoRoutes()) {
    await page.goto(`${path}?embed=1`);
    await expect(page.getByTestId('narration-latest')).not.toHaveText('');
    const figure = await page.locator('svg.scene').first().boundingBox();
    if (figure.y < 0 || figure.y + figure.height > 500 || figure.x < 0 || figure.x + figure.width > 800) {
      problems.push(`${path}: the first figure spans x ${Math.round(figure.x)}–${Math.round(figure.x + figure.width)}, y ${Math.round(figure.y)}–${Math.round(figure.y + figure.height)}`);
    }
    if (!(await page.getByTestId('step').isVisible()) || !(await isInView(page, 'step'))) problems.push(`${path}: Step is out of view`);
  }
  expect(problems).toEqual([]);
});

/** Whether the element is wholly inside the window, uncovered at its centre. */
function isInView(page, testid) {
  return page.getByTestId(testid).evaluate((el) => {
    const r = el.getBoundingClientRect();
    const inside = r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
    return inside && el.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
  });
}

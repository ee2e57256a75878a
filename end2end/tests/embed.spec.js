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

test('in an 800×500 frame every demo shows each of its figures whole, one at a time, and Step', async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 800, height: 500 });
  const problems = [];
  for (const path of demoRoutes()) {
    await page.goto(`${path}?embed=1`);
    await expect(page.getByTestId('narration-latest')).not.toHaveText('');
    const count = await page.locator('svg.scene').count();
    // One figure is shown, whole; a picture of several offers the others.
    await expect(page.getByTestId('figure-pick').getByRole('button')).toHaveCount(count > 1 ? count : 0);
    for (let n = 1; n <= count; n++) {
      if (count > 1) {
        await page.getByTestId(`figure-${n}`).click();
        await expect(page.getByTestId(`figure-${n}`)).toHaveAttribute('aria-pressed', 'true');
      }
      const shown = page.locator('.scene-figure:not(.set-aside) svg.scene');
      await expect(shown).toHaveCount(1);
      const figure = await shown.boundingBox();
      if (figure.y < 0 || figure.y + figure.height > 500 || figure.x < 0 || figure.x + figure.width > 800) {
        problems.push(`${path} figure ${n}: spans x ${Math.round(figure.x)}–${Math.round(figure.x + figure.width)}, y ${Math.round(figure.y)}–${Math.round(figure.y + figure.height)}`);
      }
      if (!(await page.getByTestId('step').isVisible()) || !(await isInView(page, 'step'))) problems.push(`${path} figure ${n}: Step is out of view`);
    }
  }
  expect(problems).toEqual([]);
});

test('a framed demo opens at the figure its link asks for, keeps it while stepping, and says when it cannot', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 500 });
  await page.goto('/nic/busy-poll?embed=1&figure=3');
  await expect(page.getByTestId('figure-3')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('figure-1')).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByTestId('figure-3')).toHaveAccessibleName(/^Figure 3: CPU per packet against packet rate/);
  await expect(page.locator('.scene-figure:not(.set-aside) svg.scene')).toHaveAttribute('aria-label', /^CPU per packet/);
  await page.getByTestId('step').click();
  await expect(page.getByTestId('step-count')).toHaveText('step 1');
  await expect(page.getByTestId('figure-3')).toHaveAttribute('aria-pressed', 'true');
  // The keyboard reaches every figure's button.
  await page.getByTestId('figure-1').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('figure-1')).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('.scene-figure:not(.set-aside) svg.scene')).toHaveAttribute('aria-label', /^Stages of the receive path/);

  for (const bad of ['9', 'x', '0', '<b>1</b>']) {
    await page.goto(`/nic/busy-poll?embed=1&figure=${encodeURIComponent(bad)}`);
    await expect(page.getByTestId('link-notice'), bad).toHaveText("This link's figure could not be shown: this picture has figures 1 to 3. The first is shown.");
    await expect(page.getByTestId('figure-1')).toHaveAttribute('aria-pressed', 'true');
  }
  // A page that is not framed shows every figure, and no such row.
  await page.goto('/nic/busy-poll?figure=2');
  await expect(page.getByTestId('narration-latest')).not.toHaveText('');
  await expect(page.locator('.scene-figure.set-aside')).toHaveCount(0);
  await expect(page.getByTestId('figure-pick')).toHaveCount(0);
});

/** Whether the element is wholly inside the window, uncovered at its centre. */
function isInView(page, testid) {
  return page.getByTestId(testid).evaluate((el) => {
    const r = el.getBoundingClientRect();
    const inside = r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth;
    return inside && el.contains(document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2));
  });
}

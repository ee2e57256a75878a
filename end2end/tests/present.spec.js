// Presenter mode (?present=1, or its toggle): legible from the back of a
// lecture hall, with only the controls a lecturer steps with.
import { test, expect } from './fixtures.js';
import { demoRoutes } from './routes.js';

/** Presenter mode's promise, in CSS px (views::layout::PRESENTING_TEXT_PX). */
const SMALLEST_PX = 24;

/**
 * The smallest text on screen, in CSS px, and where: every visible text
 * node's size as drawn (an SVG text's font size times the figure's scale).
 */
function smallestText(page) {
  return page.evaluate(() => {
    let smallest = { px: Infinity, text: '' };
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const el = node.parentElement;
      if (!node.textContent.trim() || !el) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const box = range.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || el.closest('.visually-hidden, [hidden]')) continue;
      let px = parseFloat(style.fontSize);
      if (el instanceof SVGElement) px *= el.getScreenCTM().a;
      if (px < smallest.px) smallest = { px, text: node.textContent.trim().slice(0, 40) };
    }
    return smallest;
  });
}

for (const path of demoRoutes()) {
  test(`${path}?present=1: no text under ${SMALLEST_PX} px at 1024×768, and only the lecturer's controls`, async ({ page }) => {
    await page.setViewportSize({ width: 1024, height: 768 });
    await page.goto(`${path}?present=1`);
    await expect(page.getByTestId('demo')).toBeVisible();
    await expect(page.getByTestId('present')).toHaveAttribute('aria-pressed', 'true');
    const smallest = await smallestText(page);
    expect(smallest.px, `"${smallest.text}" is drawn at ${smallest.px.toFixed(1)} px`).toBeGreaterThanOrEqual(SMALLEST_PX);
    for (const id of ['back', 'step', 'play', 'reset', 'narration-latest']) {
      await expect(page.getByTestId(id)).toBeVisible();
    }
    for (const id of ['speed', 'copy-link', 'download-figure', 'narration-history']) {
      await expect(page.getByTestId(id)).toBeHidden();
    }
    await expect(page.locator('.site-header')).toBeHidden();
    // The Break-it switches stay; every other control goes.
    const shown = await page.locator('.controls > *').evaluateAll((els) =>
      els.filter((el) => el.checkVisibility()).map((el) => el.className));
    expect(shown.every((c) => c.includes('danger-zone')), shown.join(', ')).toBe(true);
    // Step still answers: it steps, or the narration's one line says why not.
    const said = await page.getByTestId('narration-latest').textContent();
    await page.getByTestId('step').click();
    await expect(async () => {
      const stepped = (await page.getByTestId('step-count').textContent()) !== 'step 0';
      expect(stepped || (await page.getByTestId('narration-latest').textContent()) !== said).toBe(true);
    }).toPass();
  });
}

test('the toggle enters and leaves presenter mode at the same step, and a projector gets the wide figures', async ({ page }) => {
  await page.setViewportSize({ width: 1920, height: 1080 });
  await page.goto('/cpu/mesi');
  await page.getByTestId('step').click();
  await expect(page.getByTestId('step-count')).toHaveText('step 1');
  const toggle = page.getByTestId('present');
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await toggle.click();
  await expect(page.locator('html')).toHaveClass(/\bpresent\b/);
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByTestId('demo')).not.toHaveClass(/\bnarrow\b/);
  expect((await smallestText(page)).px).toBeGreaterThanOrEqual(SMALLEST_PX);
  await expect(page.getByTestId('step-count')).toHaveText('step 1');
  await toggle.click();
  await expect(page.locator('html')).not.toHaveClass(/\bpresent\b/);
  await expect(page.locator('.site-header')).toBeVisible();
  await expect(page.getByTestId('step-count')).toHaveText('step 1');
});

import { test, expect } from './fixtures.js';
import { RingPage } from '../pages/ring-page.js';
import { NapiPage } from '../pages/napi-page.js';

test('arrow keys step and step back, R resets, ? lists the shortcuts', async ({ page }) => {
  const napi = new NapiPage(page);
  await napi.open();
  await napi.setBurst(6);
  await napi.sendBurst();
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('ArrowRight');
  await napi.expectFigure('polls', 1);
  await page.keyboard.press('ArrowLeft');
  await napi.expectFigure('polls', 0);
  await page.keyboard.press('?');
  await expect(page.getByTestId('shortcuts')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('shortcuts')).toHaveCount(0);
  await page.keyboard.press('r');
  await napi.expectFigure('irqs', 0);
  await napi.expectStep(0);
});

test('Space plays and pauses', async ({ page }) => {
  const napi = new NapiPage(page);
  await napi.open();
  await napi.setBurst(40);
  await napi.sendBurst();
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press(' ');
  await expect(page.getByTestId('play')).toHaveAttribute('aria-pressed', 'true');
  await napi.expectFigure('polls', 1);
  await page.keyboard.press(' ');
  await expect(page.getByTestId('play')).toHaveAttribute('aria-pressed', 'false');
});

test('every control is reachable and operable from the keyboard', async ({ page }) => {
  const ring = new RingPage(page);
  await ring.open();
  const post = page.getByTestId('post');
  for (let i = 0; i < 60; i += 1) {
    await page.keyboard.press('Tab');
    if (await post.evaluate((el) => el === document.activeElement)) break;
  }
  await expect(post).toBeFocused();
  await page.keyboard.press('Enter');
  await ring.expectDescriptor(0, 'POSTED');
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('barrier')).toBeFocused();
  await page.keyboard.press(' ');
  await ring.expectFigure('pending', 0);
});

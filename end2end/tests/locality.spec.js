import { test, expect } from './fixtures.js';
import { expectNoSeriousAxe } from './axe.js';
import { LocalityPage } from '../pages/locality-page.js';

test('a cold sequential walk of 64 elements over 64-byte lines: 8 misses and 56 hits', async ({ page }) => {
  const loc = new LocalityPage(page);
  await loc.open();
  await loc.steps(8);
  await loc.expectFigure('hits', 7);
  await loc.expectFigure('misses', 1);
  await loc.expectElement(0, 'miss');
  await loc.expectElement(7, 'hit');
  await expect(loc.latest).toContainText('Element 7 (byte 0x38) hits: line 0 is still cached, 5 cycles.');
  await loc.step();
  await loc.expectElement(8, 'miss');
  await expect(loc.latest).toContainText('bringing elements 8 to 15');

  await loc.runToEnd();
  await loc.expectFigure('position', '64/64');
  await loc.expectFigure('hits', 56);
  await loc.expectFigure('misses', 8);
  await loc.expectFigure('miss-rate', '12.5 %');
  await loc.expectFigure('cycles', 3080);
  await loc.expectTotal('sequential', '8 misses');
  await expect(loc.total('sequential')).toContainText('8 misses · 56 hits · 3,080 cycles');
  await loc.expectPoint(1, '12.5 %');
  await loc.expectPoint(2, '25.0 %');
  await loc.expectPoint(8, '100.0 %');
});

test('break it: walking the 2-D array column by column misses all 64 times', async ({ page }) => {
  // axe takes 10–20 s on a shared machine; two runs need more than the default 30 s.
  test.slow();
  const loc = new LocalityPage(page);
  await loc.open();
  await expectNoSeriousAxe(page);
  await loc.columnMajor();
  await loc.expectFigure('walk', 'column-major');
  await expect(page.getByText('the first column touches 8 lines and the cache keeps only 4 of them')).toBeVisible();
  await loc.steps(2);
  await loc.expectElement(0, 'miss');
  await loc.expectElement(8, 'miss');
  await loc.expectElement(1, 'not yet');
  await loc.runToEnd();
  await loc.expectFigure('misses', 64);
  await loc.expectFigure('hits', 0);
  await loc.expectFigure('cycles', 22400);
  await loc.expectTotal('column-major', '64 misses');
  await loc.runAll();
  await loc.expectTotal('row-major', '8 misses');
  await loc.expectTotal('stride', '64 misses');
  await expect(page.getByTestId('why')).toContainText('Row-major is address order (8 misses); column-major jumps 64 bytes per step (64 misses)');
  await expectNoSeriousAxe(page);
});

test('stepping past the end is refused with the reason', async ({ page }) => {
  const loc = new LocalityPage(page);
  await loc.open();
  await loc.runToEnd();
  await loc.runToEnd();
  await expect(loc.latest).toHaveAttribute('data-tone', 'refused');
  await expect(loc.latest).toContainText('The sequential walk is already finished.');
  await expect(page.getByTestId('run-to-end')).toHaveClass(/refused/);
  await loc.step();
  await expect(loc.latest).toContainText('pick a walk to start again');
  await loc.expectStep(1);
});

test('a copied link reopens the same walk in a fresh page', async ({ page, browser }) => {
  const loc = new LocalityPage(page);
  await loc.open();
  await loc.walk('stride');
  await loc.steps(5);
  await loc.expectElement(32, 'miss');
  const link = await loc.copyLink();
  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(link);
  const again = new LocalityPage(other);
  await again.expectStep(6);
  await again.expectFigure('walk', 'stride');
  await again.expectFigure('position', '5/64');
  await again.expectElement(32, 'miss');
  await again.expectElement(1, 'not yet');
  await expect(other.getByTestId('walk-stride')).toBeChecked();
  await expect(other.getByTestId('link-notice')).toHaveCount(0);
  await fresh.close();
});

test('its controls work from the keyboard', async ({ page }) => {
  const loc = new LocalityPage(page);
  await loc.open();
  await page.getByTestId('walk-sequential').focus();
  await page.keyboard.press('ArrowRight');
  await loc.expectFigure('walk', 'stride');
  await page.getByTestId('total-random').focus();
  await page.keyboard.press('Enter');
  await loc.expectFigure('walk', 'random');
  await page.getByTestId('stride').focus();
  await page.keyboard.press('ArrowRight');
  await expect(loc.latest).toContainText('The stride walk now steps 16 elements. Every walk starts over from a cold cache.');
  await page.getByTestId('run-to-end').focus();
  await page.keyboard.press('Enter');
  await loc.expectFigure('position', '64/64');
});

test('a larger line halves the misses of the sequential walk', async ({ page }) => {
  const loc = new LocalityPage(page);
  await loc.open();
  await page.getByTestId('line-size').fill('7');
  await expect(loc.latest).toContainText('The cache is now 2 sets × 2 ways × 128 bytes.');
  await loc.runToEnd();
  await loc.expectFigure('misses', 4);
});

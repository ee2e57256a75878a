import { test, expect } from './fixtures.js';
import { expectNoSeriousAxe } from './axe.js';
import { BatchingPage } from '../pages/batching-page.js';

test('batches share the fixed cost; the timer bounds the wait to fill', async ({ page }) => {
  const b = new BatchingPage(page);
  await b.open();
  // 32 / (700 + 32 × 50) ns, and 700 of those 2,300 ns are fixed.
  await b.expectFigure('throughput', '13,913 k items/s');
  await b.expectFigure('overhead', '30.4 %');
  await expect(b.curve(1, 'tp')).toHaveText('1,333 k/s');
  await expect(b.curve(1, 'oh')).toHaveText('93.3 %');
  await expect(b.curve(256, 'tp')).toHaveText('18,962 k/s');
  await expect(b.curve(256, 'oh')).toHaveText('5.2 %');

  await b.step();
  await expect(b.latest).toHaveText('2,659 ns: item 1 arrives; the batch holds 1 of 32. Timer set for 18,659 ns.');
  await expect(b.shape('timer')).toContainText('timer fires 18.7 µs');

  await b.finish();
  await b.expectFigure('done', '256/256');
  await b.expectFigure('batches', 15);
  await b.expectFigure('mean-latency', '10,030 ns');
  await b.expectFigure('p99-latency', '17,700 ns');
  await expect(b.curve(32, 'mean')).toHaveText('10.0 µs');
  await expect(b.curve(1, 'mean')).toHaveText('1.4 µs');
});

test('break it: the biggest batch maximises throughput and wrecks latency at low load', async ({ page }) => {
  const b = new BatchingPage(page);
  await b.open();
  await b.breakIt();
  await b.expectFigure('throughput', '18,962 k items/s');
  await b.expectFigure('overhead', '5.2 %');
  await b.finish();
  await b.expectFigure('batches', 1);
  await b.expectFigure('mean-latency', '1,272,771 ns');
  await b.expectFigure('p99-latency', '2,425,340 ns');
  await expect(b.summary).toContainText('256 of 256 done · mean latency 1.3 ms · p99 2.4 ms');
  await expect(b.curve(1, 'p99')).not.toContainText('ms');
  await expect(b.curve(256, 'p99')).toHaveText('2.4 ms');
});

test('without a timer the last items wait forever, and the page says why', async ({ page }) => {
  const b = new BatchingPage(page);
  await b.open();
  await b.set('timeout', 0);
  await b.set('items', 40);
  await b.expectFigure('done', '0/40');
  await b.finish();
  await b.expectFigure('done', '32/40');
  await expect(page.getByTestId('finish')).toHaveClass(/refused/);
  await b.finish();
  await expect(b.latest).toHaveAttribute('data-tone', 'refused');
  await expect(b.latest).toContainText('Nothing more happens: 8 items wait in a batch of 32');
  await expect(b.curve(64, 'mean')).toHaveText('never');
  await expect(b.shape('stuck')).toContainText('no timer: some items never leave at batch 16, 32, 64, 128, 256');
});

test('a share link reopens the run at the same moment', async ({ page, browser }) => {
  const b = new BatchingPage(page);
  await b.open();
  await b.set('batch', 8);
  for (let i = 0; i < 5; i += 1) await b.step();
  await b.expectFigure('time', '6,986 ns');
  const link = await b.copyLink();

  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(link);
  const again = new BatchingPage(other);
  await again.expectFigure('time', '6,986 ns');
  await again.expectFigure('throughput', '7,272 k items/s');
  await expect(other.getByTestId('batch')).toHaveValue('8');
  await again.expectStep(6);
  await expect(other.getByTestId('link-notice')).toHaveCount(0);
  await fresh.close();
});

test('its controls work from the keyboard', async ({ page }) => {
  const b = new BatchingPage(page);
  await b.open();
  await page.getByTestId('batch').focus();
  await page.keyboard.press('ArrowRight');
  await b.expectFigure('throughput', '14,042 k items/s');
  await page.getByTestId('poisson').focus();
  await page.keyboard.press(' ');
  await expect(page.getByTestId('poisson')).not.toBeChecked();
  await page.getByTestId('finish').focus();
  await page.keyboard.press('Enter');
  await b.expectFigure('done', '256/256');
});

test('axe finds no serious violation, before and after breaking it', async ({ page }) => {
  const b = new BatchingPage(page);
  await b.open();
  await b.step();
  await expectNoSeriousAxe(page);
  await b.breakIt();
  await b.finish();
  await b.expectFigure('batches', 1);
  await expectNoSeriousAxe(page);
});

import { test, expect } from './fixtures.js';
import { expectNoSeriousAxe } from './axe.js';
import { RingSizingPage } from '../pages/ring-sizing-page.js';

// A full frame takes 1,500 + 14 + 4 + 8 + 12 = 1,538 bytes of line time:
// 123.04 ns at 100 Gb/s. 1,024 entries, one kept empty, hold 1,023 frames:
// 125.9 µs of stall.
test('the ring absorbs 126 µs; a 200 µs stall drops frames until the ring is deep enough', async ({ page }) => {
  const r = new RingSizingPage(page);
  await r.open();
  await r.expectFigure('absorbs', '125.9 µs');
  await expect(r.cell('frame-time')).toHaveText('1,538 = 123.04 ns');
  await r.expectFigure('held', '0 of 1,023');
  await r.step();
  await r.expectFigure('time', '10 µs');

  await r.fill('stall', 200);
  await r.finish();
  await r.expectFigure('dropped', '603');
  await expect(r.cell('smallest-entries')).toHaveText('1,632');
  await expect(r.cell('both-entries')).toHaveText('1,632 to 3,008');
  await r.fill('entries', 1632);
  await r.finish();
  await r.expectFigure('dropped', '0');
});

// Sixteen queues' rings and buffers are 24.5 MiB against 4.5 MiB of DDIO
// ways: the NIC's writes leak to DRAM.
test('break it: many queues leak out of the DDIO ways; a long stall leaves no ring that does both', async ({ page }) => {
  const r = new RingSizingPage(page);
  await r.open();
  await r.press('many-queues');
  await r.expectFigure('footprint', '24.50 MiB / 4.50 MiB');
  await r.expectFigure('largest', '160');
  await expect(page.getByTestId('footprint')).toHaveAttribute('data-state', 'leaks');
  await r.open();
  await r.press('long-stall');
  await r.expectFigure('smallest', '4,096');
  await expect(r.cell('both-entries')).toHaveText('none');
});

test('a share link restores the ring and the time', async ({ page }) => {
  const r = new RingSizingPage(page);
  await r.open();
  await r.fill('stall', 200);
  await r.step();
  await r.step();
  const link = await r.copyLink();
  await page.goto(link);
  await r.expectFigure('time', '20 µs');
  await expect(page.getByTestId('stall')).toHaveValue('200');
  await expect(page.getByTestId('link-notice')).toHaveCount(0);
});

test('axe finds no serious violation', async ({ page }) => {
  const r = new RingSizingPage(page);
  await r.open();
  await expectNoSeriousAxe(page);
  await r.press('long-stall');
  await r.finish();
  await expectNoSeriousAxe(page);
});

import { test, expect } from './fixtures.js';
import { expectNoSeriousAxe } from './axe.js';
import { ZeroCopyPage } from '../pages/zero-copy-page.js';

// Zero-copy into device memory, eight bound buffers, the application
// giving each back two packet times after it read it. A Step is half a
// packet time: the packet lands (the kernel holds its buffer while TCP
// works), then the application reads it (the app holds it).
test('a packet lands in a bound buffer, the app reads it, and a batch copies nothing', async ({ page }) => {
  const zc = new ZeroCopyPage(page);
  await zc.open();
  await zc.step();
  await expect(zc.buffer(0)).toHaveAttribute('data-state', 'kernel');
  await zc.step();
  await expect(zc.buffer(0)).toHaveAttribute('data-state', 'app');

  await zc.reset();
  await zc.sendBatch();
  await zc.expectFigure('read', '10');
  await zc.expectFigure('dropped', '0');
  await zc.expectFigure('copied', '0');
  await zc.expectFigure('held', '2');
  await zc.expectFigure('returned', '8');
});

// Held for six packet times, eight buffers run out: the NIC has nowhere to
// put two of twenty packets and drops them.
test('break it: an application that holds buffers too long makes the NIC drop', async ({ page }) => {
  const zc = new ZeroCopyPage(page);
  await zc.open();
  await zc.setHold(6);
  await zc.sendBatch();
  await zc.sendBatch();
  await zc.expectFigure('dropped', '2');
});

// Without the flow-steering rule RSS puts the flow on queue 1, which has
// no bound memory: every payload is copied the old way.
test('break it: without its steering rule the flow is copied after all', async ({ page }) => {
  const zc = new ZeroCopyPage(page);
  await zc.open();
  await zc.toggle('steering');
  await zc.sendBatch();
  await zc.expectFigure('copied', '14,480');
  await expect(page.getByTestId('need-steer')).toContainText('no rule: RSS picks queue 1');
});

test('a share link restores the hold and the packets', async ({ page }) => {
  const zc = new ZeroCopyPage(page);
  await zc.open();
  await zc.setHold(6);
  await zc.sendBatch();
  await zc.step();
  const link = await zc.copyLink();
  await page.goto(link);
  await expect(page.getByTestId('hold')).toHaveValue('6');
  await expect(zc.latest).not.toBeEmpty();
  await expect(page.getByTestId('link-notice')).toHaveCount(0);
});

test('axe finds no serious violation, zero-copy and copying', async ({ page }) => {
  const zc = new ZeroCopyPage(page);
  await zc.open();
  await zc.sendBatch();
  await expectNoSeriousAxe(page);
  await zc.toggle('steering');
  await zc.sendBatch();
  await expectNoSeriousAxe(page);
});

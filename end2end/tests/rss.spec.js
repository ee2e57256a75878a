import { test, expect } from './fixtures.js';
import { expectNoSeriousAxe } from './axe.js';
import { RssPage } from '../pages/rss-page.js';

// Sixteen small flows, four queues, two nodes of four cores. The first
// flow, 172.16.x.y → 10.0.0.1:443, hashes under the standard key to a
// value whose low 7 bits are 24: entry 24 holds queue 0 (24 mod 4), whose
// interrupt goes to core 0. Over a round of 16 packets the queues get
// 7, 5, 2 and 2: the busiest core processes 7/16 = 43.8 %.
test('a packet goes hash, entry, queue, core; a round spreads sixteen flows', async ({ page }) => {
  const rss = new RssPage(page);
  await rss.open();
  await rss.expectFigure('received', '0');
  await rss.expectFigure('busiest', '43.8 %');
  await rss.expectFigure('fair', '12.5 %');
  await expect(rss.entry(24)).toHaveAttribute('data-state', 'used');

  await rss.step();
  await expect(rss.latest).toContainText('its low 7 bits pick entry 24, which holds queue 0');
  await expect(rss.latest).toContainText('goes to core 0 on node 0');
  await expect(rss.entry(24)).toHaveAttribute('data-state', 'hit');
  await rss.expectFigure('received', '1');

  await rss.receiveRound();
  await rss.expectFigure('received', '17');
  await expect(rss.latest).toContainText('16 more packets, a whole round');
});

// Four elephants from one host, eight packets each per round: three hash
// to entries holding queue 1, so core 1 takes 29 of 48 packets (60.4 %).
// Selecting one of those entries (41) points it at queue 2: 21 of 48.
test('break it: elephants crowd one queue until an entry is moved', async ({ page }) => {
  const rss = new RssPage(page);
  await rss.open();
  await rss.toggle('elephants');
  await rss.expectFigure('busiest', '60.4 %');
  await expect(rss.entry(41)).toHaveAttribute('data-state', 'used');
  await expect(rss.entry(41)).toContainText('1');
  await rss.entry(41).click();
  await expect(rss.latest).toContainText('Entry 41 now holds queue 2 instead of 1.');
  await expect(rss.entry(41)).toContainText('2');
  await rss.expectFigure('busiest', '43.8 %');
  // RPS spreads node 0's work by the hash's high bits: at most 14 of 48.
  await page.getByTestId('spread').click();
  await rss.toggle('rps');
  await rss.expectFigure('busiest', '29.2 %');
});

test('interrupts on the far node, and RFS bringing work to the reader', async ({ page }) => {
  const rss = new RssPage(page);
  await rss.open();
  await rss.expectFigure('remote', '0.0 %');
  await rss.toggle('remote-irqs');
  await rss.expectFigure('remote', '100.0 %');
  await rss.step();
  await expect(rss.latest).toContainText('crosses the socket link');
  await rss.toggle('remote-irqs');
  await rss.expectFigure('handover', '93.8 %');
  await rss.toggle('rfs');
  await rss.expectFigure('handover', '0.0 %');
});

test('a share link restores the table, the switches and the packets', async ({ page }) => {
  const rss = new RssPage(page);
  await rss.open();
  await rss.toggle('elephants');
  await rss.entry(41).click();
  await rss.toggle('xps');
  await rss.step();
  await rss.step();
  const link = await rss.copyLink();
  await page.goto(link);
  await rss.expectFigure('received', '2');
  await expect(rss.entry(41)).toContainText('2');
  await expect(page.getByTestId('xps')).toBeChecked();
  await expect(page.getByTestId('elephants')).toBeChecked();
  await expect(page.getByTestId('link-notice')).toHaveCount(0);
});

test('the table is one keyboard stop whose entries the arrow keys visit', async ({ page }) => {
  const rss = new RssPage(page);
  await rss.open();
  await rss.entry(0).focus();
  await page.keyboard.press('ArrowRight');
  await expect(rss.entry(1)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(rss.latest).toContainText('Entry 1 now holds queue 2 instead of 1.');
  await expect(rss.entry(1)).toBeFocused();
});

test('axe finds no serious violation, at rest and with everything broken', async ({ page }) => {
  const rss = new RssPage(page);
  await rss.open();
  await expectNoSeriousAxe(page);
  await rss.toggle('elephants');
  await rss.toggle('remote-irqs');
  await rss.receiveRound();
  await expectNoSeriousAxe(page);
});

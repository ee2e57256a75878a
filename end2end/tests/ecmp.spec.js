import { test, expect } from './fixtures.js';
import { expectNoSeriousAxe } from './axe.js';
import { EcmpPage } from '../pages/ecmp-page.js';

// Eight connections on eight uplinks, one QP each, draw 1. The closed
// forms: 8·(7/8)^8 = 2.75 idle uplinks on average, all apart with chance
// 8!/8^8 = 0.24 %. Connection 0 (source port 56513, QP 0xad2ae1) hashes
// to 0xf6dd2dd5, in uplink 7's region. The whole draw leaves 4 uplinks
// idle and piles 3 connections on uplink 7, so the step takes 3 × 64 =
// 192 ticks, 3.00 times a connection alone.
test('eight flows hash onto eight uplinks and the busiest sets the step', async ({ page }) => {
  const ecmp = new EcmpPage(page);
  await ecmp.open();
  await ecmp.expectFigure('placed', '0/8');
  await ecmp.expectFigure('expected-idle', '2.75');
  await ecmp.expectFigure('no-collision', '0.24 %');

  await ecmp.step();
  await expect(ecmp.latest).toContainText('Connection 0: 10.0.0.1:56513 → 10.0.1.1:4791');
  await expect(ecmp.latest).toContainText('hashes to 0xf6dd2dd5, uplink 7');
  await expect(ecmp.uplink(7)).toHaveAttribute('data-state', 'even');

  await ecmp.placeAll();
  await ecmp.expectFigure('placed', '8/8');
  await ecmp.expectFigure('idle-now', '4');
  await ecmp.expectFigure('busiest-now', '3');
  await expect(ecmp.uplink(7)).toHaveAttribute('data-state', 'crowded');
  await expect(ecmp.uplink(3)).toHaveAttribute('data-state', 'idle');

  await ecmp.send();
  await ecmp.expectFigure('step', '3.00');
  await ecmp.expectFigure('reordered', '0');
  await expect(ecmp.row('cmp-ecmp')).toContainText('192');
});

// The same draw with packet spraying: 73 ticks (1.14 ×), but 257 packets
// arrive out of order. Four QPs a connection under ECMP: the busiest
// uplink carries 6 QPs, 1.50 connections' worth.
test('break it: spraying evens the load and reorders; more QPs help without reordering', async ({ page }) => {
  const ecmp = new EcmpPage(page);
  await ecmp.open();
  await ecmp.balancer('spray');
  await ecmp.placeAll();
  await ecmp.send();
  await ecmp.expectFigure('step', '1.14');
  await ecmp.expectFigure('reordered', '257');

  await ecmp.balancer('ecmp');
  await ecmp.setNumber('qps', 4);
  await ecmp.placeAll();
  await ecmp.send();
  await ecmp.expectFigure('busiest-now', '6');
  await ecmp.expectFigure('step', '1.50');
  await ecmp.expectFigure('reordered', '0');
});

// Flowlets: three pauses of 2 ticks move flows onto short queues (1.23 ×)
// but 164 packets overtake; pauses of 200 ticks reorder nothing (1.00 ×).
test('flowlets: a short pause reorders, a long one does not', async ({ page }) => {
  const ecmp = new EcmpPage(page);
  await ecmp.open();
  await ecmp.balancer('flowlet');
  await ecmp.setNumber('gaps', 3);
  await ecmp.setNumber('pause', 2);
  await ecmp.placeAll();
  await ecmp.send();
  await ecmp.expectFigure('step', '1.23');
  await ecmp.expectFigure('reordered', '164');
  await ecmp.setNumber('pause', 200);
  await ecmp.send();
  await ecmp.expectFigure('step', '1.00');
  await ecmp.expectFigure('reordered', '0');
});

test('a share link restores the draw, the balancer and the step', async ({ page }) => {
  const ecmp = new EcmpPage(page);
  await ecmp.open();
  await ecmp.balancer('spray');
  await ecmp.placeAll();
  await ecmp.send();
  const link = await ecmp.copyLink();
  await page.goto(link);
  await ecmp.expectFigure('placed', '8/8');
  await ecmp.expectFigure('reordered', '257');
  await expect(page.getByTestId('balancer-spray')).toBeChecked();
  await expect(page.getByTestId('link-notice')).toHaveCount(0);
});

test('axe finds no serious violation, at rest and after a step', async ({ page }) => {
  const ecmp = new EcmpPage(page);
  await ecmp.open();
  await expectNoSeriousAxe(page);
  await ecmp.placeAll();
  await ecmp.send();
  await expectNoSeriousAxe(page);
});

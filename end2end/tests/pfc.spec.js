import { test, expect } from './fixtures.js';
import { expectNoSeriousAxe } from './axe.js';
import { PfcPage } from '../pages/pfc-page.js';

// A, B and C send to H3 at 100 Gb/s; V sends from H2 to the idle H5 over
// the same uplink and spine. After 100 µs of PFC alone, L1's counters have
// paused S0 and L0, and the pauses have spread to every host on L0 (H2
// included, though it never sends to H3) and to H4. Nothing is dropped.
test('an incast pauses its way up the tree and stalls the victim', async ({ page }) => {
  const m = new PfcPage(page);
  await m.open();
  await m.expectFigure('time', '0.0 µs');
  await m.expectFigure('state', 'flowing');

  await m.step();
  await expect(m.latest).toContainText('Tick 0 (0.0 µs): Bytes move; no port is paused');
  await m.expectFigure('time', '0.1 µs');

  await m.runLong();
  await m.expectFigure('time', '100.1 µs');
  await m.expectFigure('state', 'paused');
  await m.expectFigure('paused', '6');
  await m.expectFigure('frames', '35');
  await m.expectFigure('victim', '28.0 Gb/s');
  await m.expectFigure('drops', '0');
  await expect(m.node('h2')).toHaveAttribute('data-state', 'paused');
  await expect(m.node('h4')).toHaveAttribute('data-state', 'paused');
  await expect(m.link('l0-s0')).toHaveAttribute('data-state', 'paused');
  await expect(m.latest).toContainText('6 links paused now; the queue for H3 holds 55.0 KB; V runs at 28.0 Gb/s.');
});

// ECN marking with DCQCN: 32 CNPs over 2 ms cut the senders' rates, only
// 18 PFC frames go out (684 with PFC alone), nothing is paused at the end
// and V runs at 42.1 Gb/s.
test('fix it: DCQCN keeps queues short and the victim moving', async ({ page }) => {
  const m = new PfcPage(page);
  await m.open();
  await m.toggle('dcqcn');
  await m.toEnd();
  await m.expectFigure('time', '2000.0 µs');
  await m.expectFigure('state', 'flowing');
  await m.expectFigure('frames', '18');
  await m.expectFigure('paused', '0');
  await m.expectFigure('victim', '42.1 Gb/s');
  await expect(m.flowCell(3, 'rate')).toHaveText('42.1');
  await expect(m.flowCell(3, 'rc')).toHaveText('42.1 / 46.6');
  await expect(m.latest).toContainText('18 PFC frames sent, 32 CNPs');
});

// The routing loop: H5's traffic goes round L0 → S0 → L1 → S1 → L0. By
// 91.9 µs the four ring links are paused in a cycle: deadlock. The
// watchdog, turned on at 200 µs, flushes the stuck queues 200 µs later.
test('break it: a routing loop deadlocks until the watchdog drops', async ({ page }) => {
  const m = new PfcPage(page);
  await m.open();
  await m.toggle('loop');
  await m.runLong();
  await m.expectFigure('state', 'deadlock');
  await expect(m.latest).toContainText('Deadlock since tick 919: L0→S0, S0→L1, L1→S1, S1→L0 are paused in a cycle');
  for (const key of ['l0-s0', 's0-l1', 'l1-s1', 's1-l0']) {
    await expect(m.link(key)).toHaveAttribute('data-state', 'deadlock');
  }
  await m.runLong();
  await m.expectFigure('paused', '7');
  await m.expectFigure('victim', '0.0 Gb/s');

  // The watchdog starts watching when it is switched on: 200 µs later it
  // flushes the stuck queues and by 500 µs nothing is paused. The loop is
  // still there, so the deadlock forms again (at 690 µs).
  await m.toggle('watchdog');
  await m.runLong();
  await m.expectFigure('state', 'deadlock');
  await m.runLong();
  await m.runLong();
  await m.expectFigure('time', '500.0 µs');
  await m.expectFigure('state', 'flowing');
  await m.expectFigure('paused', '0');
  await expect(m.link('l0-s0')).not.toHaveAttribute('data-state', 'deadlock');
  await m.runLong();
  await m.runLong();
  await m.expectFigure('state', 'deadlock');
});

// 10 KB of headroom against 76.8 KB still arriving: the lossless priority
// drops 753 750 bytes in 100 µs.
test('break it: too little headroom drops on the lossless priority', async ({ page }) => {
  const m = new PfcPage(page);
  await m.open();
  await m.shrinkHeadroom();
  await expect(m.latest).toContainText('10 KB of headroom is too little');
  await m.runLong();
  await m.expectFigure('state', 'dropping');
  await m.expectFigure('drops', '753750');
  await expect(m.latest).toContainText('753750 bytes dropped on the lossless priority');
});

test('a share link restores the settings and the ticks', async ({ page }) => {
  const m = new PfcPage(page);
  await m.open();
  await m.toggle('dcqcn');
  await m.step();
  await m.step();
  await m.step();
  const link = await m.copyLink();
  await page.goto(link);
  await m.expectFigure('time', '0.3 µs');
  await expect(page.getByTestId('dcqcn')).toBeChecked();
  await expect(page.getByTestId('link-notice')).toHaveCount(0);
});

test('its controls work from the keyboard', async ({ page }) => {
  const m = new PfcPage(page);
  await m.open();
  await page.getByTestId('dcqcn').focus();
  await page.keyboard.press(' ');
  await expect(page.getByTestId('dcqcn')).toBeChecked();
  await page.getByTestId('dcqcn').focus();
  await page.keyboard.press(' ');
  await expect(page.getByTestId('dcqcn')).not.toBeChecked();
  await page.getByTestId('run-short').focus();
  await page.keyboard.press('Enter');
  await m.expectFigure('time', '10.0 µs');
  await m.expectFigure('frames', '3');
});

test('axe finds no serious violation, at rest and deadlocked', async ({ page }) => {
  const m = new PfcPage(page);
  await m.open();
  await expectNoSeriousAxe(page);
  await m.toggle('loop');
  await m.runLong();
  await expectNoSeriousAxe(page);
});

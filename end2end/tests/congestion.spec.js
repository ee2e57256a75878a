import { test, expect } from './fixtures.js';
import { expectNoSeriousAxe } from './axe.js';
import { CongestionPage } from '../pages/congestion-page.js';

test('Reno: slow start doubles cwnd each round trip, overflows the buffer, then halves', async ({ page }) => {
  const cc = new CongestionPage(page);
  await cc.open();
  // Linux's initial window: 10 segments (RFC 6928).
  await cc.expectFigure('cwnd', '10.0');
  await cc.expectFigure('ssthresh', '∞');
  const seen = [];
  for (let i = 0; i < 3; i += 1) {
    await cc.step();
    seen.push(await cc.figure('cwnd').textContent());
  }
  expect(seen).toEqual(['10.0', '20.0', '40.0']);
  await cc.expectFigure('queue', '9/32');
  await cc.step();
  await cc.expectFigure('drops', 6);
  await expect(cc.latest).toContainText('6 packets lost at the port');
  await cc.step();
  await cc.step();
  await cc.expectFigure('ssthresh', '65.5');
  await expect(cc.latest).toContainText('cwnd = ssthresh + 3 = 68.5');
  await expect(cc.chart.getByTestId('marks').locator('circle')).not.toHaveCount(0);
});

test('break it: a buffer of 30 BDPs lets cwnd and the RTT balloon', async ({ page }) => {
  const cc = new CongestionPage(page);
  await cc.open();
  await cc.press('bufferbloat');
  await cc.expectFigure('queue', '0/1000');
  await cc.steps(40);
  await cc.expectFigure('time', '1.60 s');
  await cc.expectFigure('cwnd', '1,271.0');
  await cc.expectFigure('rtt', '762.0 ms');
  await cc.expectFigure('base-rtt', '40.0 ms');
  await expect(page.getByTestId('why')).toContainText('bufferbloat');
});

test('a click on a waiting packet loses it; starting flow 2 twice is refused', async ({ page }) => {
  const cc = new CongestionPage(page);
  await cc.open();
  // Three round trips: 9 packets wait, none lost yet.
  await cc.steps(3);
  await expect(cc.queueCell(0)).toHaveAttribute('data-state', 'on the wire');
  await cc.queueCell(3).click();
  await expect(cc.latest).toContainText('You dropped segment');
  await cc.expectFigure('drops', 1);
  await cc.press('join');
  await expect(cc.latest).toContainText('Flow 2 (Reno) starts');
  await cc.press('join');
  await expect(cc.latest).toHaveAttribute('data-tone', 'refused');
  await expect(cc.latest).toContainText('Flow 2 is already running.');
});

test('a share link restores two flows and a lost packet', async ({ page }) => {
  const cc = new CongestionPage(page);
  await cc.open();
  await cc.chooseAlgorithm(1, 'cubic');
  await cc.steps(3);
  await cc.press('join');
  await cc.press('drop-1');
  await cc.steps(2);
  const link = await cc.copyLink();
  const cwnd = await cc.figure('cwnd').textContent();
  await page.goto(link);
  await cc.expectFigure('cwnd', cwnd);
  await expect(page.getByTestId('algorithm-1-cubic')).toBeChecked();
  await expect(page.getByTestId('flows')).toContainText('2 · Reno');
  await cc.expectStep(7);
  await expect(page.getByTestId('link-notice')).toHaveCount(0);
});

test('its controls work from the keyboard', async ({ page }) => {
  const cc = new CongestionPage(page);
  await cc.open();
  await page.getByTestId('rate').focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('rate-value')).toContainText('11');
  await cc.steps(6);
  await cc.queueCell(2).focus();
  await page.keyboard.press('Enter');
  await expect(cc.latest).toContainText('You dropped segment');
  await page.getByTestId('drop-1').focus();
  await page.keyboard.press('Enter');
  await expect(cc.latest).toContainText('next packet of flow 1');
});

test('axe finds no serious violation, before and after breaking it', async ({ page }) => {
  // Two full axe runs over a picture of hundreds of shapes.
  test.setTimeout(90_000);
  const cc = new CongestionPage(page);
  await cc.open();
  await expectNoSeriousAxe(page);
  await cc.press('bufferbloat');
  await cc.steps(8);
  await expectNoSeriousAxe(page);
});

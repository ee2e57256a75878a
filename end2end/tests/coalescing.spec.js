import { test, expect } from './fixtures.js';
import AxeBuilder from '@axe-core/playwright';
import { CoalescingPage } from '../pages/coalescing-page.js';

async function expectNoSeriousViolations(page) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => ['serious', 'critical'].includes(v.impact));
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
}

test('rx-usecs holds the interrupt 30 µs after the first packet; the poll takes 4 per interrupt', async ({ page }) => {
  const co = new CoalescingPage(page);
  await co.open();
  await expectNoSeriousViolations(page);
  await co.expectFigure('setting', 'rx-usecs 30 · rx-frames 32');
  await co.step();
  await co.expectFigure('clock', '50.0 µs');
  await co.expectFigure('irqs', 1);
  await co.expectFigure('per-irq', '4.0');
  await co.expectFigure('latency', '20.3 µs');
  await co.expectFigure('latency-max', '33.0 µs');
  await expect(co.latest).toContainText('waited 30.0 µs for rx-usecs');
  await co.runToEnd();
  await co.expectFigure('irq-rate', '25,000');
  await co.expectFigure('cpu', '17.5 %');
  await expect(co.cell('try-off-irqs')).toHaveText('100,000');
  await expect(co.cell('try-u125-wait')).toHaveText('68.5 µs');
});

test('no coalescing (rx-usecs 0, rx-frames 1): an interrupt per packet, the shortest wait, the most CPU', async ({ page }) => {
  const co = new CoalescingPage(page);
  await co.open();
  await co.setUsecs(0);
  await co.expectFigure('setting', 'rx-usecs 0 · rx-frames 32');
  await co.setFrames(1);
  await co.expectFigure('setting', 'rx-usecs 0 · rx-frames 1');
  await co.runToEnd();
  await co.expectFigure('per-irq', '1.0');
  await co.expectFigure('latency', '3.0 µs');
  await co.expectFigure('cpu', '25.1 %');
});

test('both zero is refused by this driver (the choice is each driver\'s, not ethtool\'s)', async ({ page }) => {
  const co = new CoalescingPage(page);
  await co.open();
  await co.setFrames(0);
  await co.expectFigure('setting', 'rx-usecs 30 · rx-frames 0');
  await co.setUsecs(0);
  await expect(co.latest).toHaveAttribute('data-tone', 'refused');
  await expect(co.latest).toContainText('would never fire an interrupt');
  await expect(co.latest).toContainText('each driver\'s choice, not ethtool\'s');
  await co.expectFigure('setting', 'rx-usecs 30 · rx-frames 0');
});

test('ixgbe\'s dynamic mode (rx-usecs 1) climbs to the bulk class under load', async ({ page }) => {
  const co = new CoalescingPage(page);
  await co.open();
  await co.setRate(500);
  await co.adaptive();
  await co.expectFigure('setting', 'ixgbe dynamic: low latency (50 µs)');
  await expect(co.latest).toContainText('ethtool -C rx-usecs 1 on ixgbe');
  await co.runToEnd();
  await co.expectFigure('setting', 'ixgbe dynamic: bulk (125 µs)');
  await expect(page.getByTestId('why')).toContainText('bulk class');
});

test('break it: counting packets only strands them when traffic is slow', async ({ page }) => {
  const co = new CoalescingPage(page);
  await co.open();
  await co.framesOnly();
  await expect(co.latest).toContainText('Only the 32nd packet can fire the interrupt');
  await co.expectFigure('rate', '10 k pkt/s');
  await co.runToEnd();
  await co.expectFigure('irqs', 0);
  await co.expectFigure('waiting', 21);
  await expect(page.getByTestId('narration-history')).toContainText('A packet has waited 2.0 ms in the ring');
  await expect(page.getByTestId('why')).toContainText('only the rx-frames count can fire the interrupt');
  await co.framesOnly();
  await expect(co.latest).toContainText('It is broken already');
  await expectNoSeriousViolations(page);
});

test('a copied link restores the settings and the clock', async ({ page }) => {
  const co = new CoalescingPage(page);
  await co.open();
  await co.setRate(200);
  await co.setUsecs(50);
  await co.step();
  await co.step();
  const link = await co.copyLink();
  await page.goto(link);
  await co.expectFigure('clock', '100.0 µs');
  await co.expectFigure('rate', '200 k pkt/s');
  await co.expectFigure('setting', 'rx-usecs 50 · rx-frames 32');
  await expect(page.getByTestId('link-notice')).toHaveCount(0);
});

test('its controls work from the keyboard', async ({ page }) => {
  const co = new CoalescingPage(page);
  await co.open();
  await page.getByTestId('rx-usecs').focus();
  await page.keyboard.press('ArrowRight');
  await co.expectFigure('setting', 'rx-usecs 35 · rx-frames 32');
  await page.getByTestId('adaptive').focus();
  await page.keyboard.press(' ');
  await co.expectFigure('setting', 'ixgbe dynamic: low latency (50 µs)');
  await page.getByTestId('run-to-end').focus();
  await page.keyboard.press('Enter');
  await co.expectFigure('clock', '2.0 ms');
});

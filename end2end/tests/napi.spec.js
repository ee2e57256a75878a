import { test, expect } from './fixtures.js';
import AxeBuilder from '@axe-core/playwright';
import { NapiPage } from '../pages/napi-page.js';

test('a burst of 6 with budget 4: one hard IRQ, two polls, line re-armed', async ({ page }) => {
  const napi = new NapiPage(page);
  await napi.open();
  await napi.expectFigure('budget', 4);
  await napi.setBurst(6);
  await napi.sendBurst();
  await napi.expectFigure('irqs', 1);
  await napi.expectFigure('line', 'MASKED');
  await napi.expectFigure('occupancy', '6/16');

  await napi.step();
  await napi.expectFigure('drained', 4);
  await napi.expectFigure('line', 'MASKED');
  await napi.step();
  await napi.expectFigure('drained', 2);
  await napi.expectFigure('polls', 2);
  await napi.expectFigure('line', 'ARMED');
  await napi.expectFigure('irqs', 1);
  await napi.expectFigure('irqs-per-packet', 6);
  await expect(page.getByTestId('irq-line')).toContainText('ARMED');
  await expect(page.getByTestId('poll-history')).toContainText('2/4 → re-armed');
});

test('a burst larger than the free ring space is dropped in part', async ({ page }) => {
  const napi = new NapiPage(page);
  await napi.open();
  await napi.setBurst(20);
  await napi.sendBurst();
  await napi.expectFigure('drops', 4);
  await napi.expectFigure('occupancy', '16/16');
  await expect(page.getByTestId('narration-history')).toContainText('20 packets');
  await expect(napi.latest).toContainText('ARMED');
});

test('the budget slider changes how much each poll drains', async ({ page }) => {
  const napi = new NapiPage(page);
  await napi.open();
  await napi.setBudget(8);
  await napi.expectFigure('budget', 8);
  await napi.setBurst(6);
  await napi.sendBurst();
  await napi.step();
  await napi.expectFigure('drained', 6);
  await napi.expectFigure('polls', 1);
  await napi.expectFigure('line', 'ARMED');
});

test('the budget bounds one instance; net_rx_action hands tasks the CPU at netdev_budget', async ({ page }) => {
  const napi = new NapiPage(page);
  await napi.open();
  await expect(page.getByTestId('why')).toContainText('netdev_budget (300 packets)');
  await expect(page.getByTestId('why')).toContainText('ksoftirqd');
});

test('napi_defer_hard_irqs: napi_complete_done() returns false and a timer polls instead of an IRQ', async ({ page }) => {
  const napi = new NapiPage(page);
  await napi.open();
  await napi.setDefer(2);
  await napi.expectFigure('budget', 4);
  await napi.setTimeout(200);
  await expect(page.getByTestId('timer')).toHaveAttribute('data-state', 'idle');
  await napi.setBurst(2);
  await napi.sendBurst();
  await napi.expectFigure('irqs', 1);
  await napi.step();
  await expect(napi.latest).toContainText('napi_complete_done() returned false');
  await napi.expectFigure('line', 'MASKED');
  await expect(page.getByTestId('timer')).toHaveAttribute('data-state', 'running');
  await napi.step();
  await expect(napi.latest).toContainText('gro_flush_timeout timer fires');
  await napi.step();
  await napi.step();
  await napi.step();
  await expect(napi.latest).toContainText('returned true');
  await napi.expectFigure('line', 'ARMED');
  await napi.expectFigure('irqs', 1);
  await napi.expectFigure('timer-polls', 2);
  await expect(page.getByTestId('poll-history')).toContainText('0/4 → deferred: timer');
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => ['serious', 'critical'].includes(v.impact));
  expect(bad.map((v) => v.id)).toEqual([]);
});

test('the deferral survives a share link', async ({ page }) => {
  const napi = new NapiPage(page);
  await napi.open();
  await napi.setDefer(3);
  await napi.setTimeout(100);
  await napi.setBurst(2);
  await napi.sendBurst();
  await napi.step();
  const link = await napi.copyLink();
  await page.goto(link);
  await napi.expectFigure('line', 'MASKED');
  await expect(page.getByTestId('timer')).toHaveAttribute('data-state', 'running');
  await expect(page.getByTestId('defer')).toHaveValue('3');
});

test('the deferral sliders work from the keyboard', async ({ page }) => {
  const napi = new NapiPage(page);
  await napi.open();
  await page.getByTestId('defer').focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('defer')).toHaveValue('1');
  await page.getByTestId('gro-timeout').focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('gro-timeout')).toHaveValue('50');
  await expect(page.getByTestId('timer')).toHaveAttribute('data-state', 'idle');
});

import { test, expect } from './fixtures.js';
import AxeBuilder from '@axe-core/playwright';
import { BusyPollPage } from '../pages/busy-poll-page.js';

async function expectNoSeriousViolations(page) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => ['serious', 'critical'].includes(v.impact));
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
}

test('busy polling removes the interrupt, the NAPI schedule and the wakeup', async ({ page }) => {
  const rx = new BusyPollPage(page);
  await rx.open();
  await rx.expectFigure('total', '890 ns');
  await rx.busyPoll();
  await rx.expectFigure('total', '320 ns');
  await rx.expectFigure('saving', '570 ns (64.0 %)');
  for (const key of ['msix', 'irq', 'wakeup']) {
    await expect(rx.offLabel(key)).toHaveText('removed by busy polling');
  }
  await rx.expectRowState('dma', 'ahead');
});

test('the packet rate decides which mode costs less CPU', async ({ page }) => {
  const rx = new BusyPollPage(page);
  await rx.open();
  await rx.expectFigure('crossover', '1.82 M pkt/s');
  await rx.setRate('1k');
  await rx.expectFigure('rate', '1 k pkt/s');
  await expect(rx.cpu('irq-per-packet')).toHaveText('550 ns');
  await expect(rx.cpu('busy-per-packet')).toHaveText('1,000,000 ns');
  await expect(rx.cpu('busy-util')).toHaveText('100.0 %');
  await expect(rx.cpu('cheaper')).toContainText('interrupts');

  await rx.setRate('10M');
  await expect(rx.cpu('busy-per-packet')).toHaveText('100 ns');
  await expect(rx.cpu('irq-util')).toHaveText('550.0 %');
  await expect(rx.cpu('cpu-panel')).toContainText('more than a core');
  await expect(rx.cpu('cheaper')).toContainText('busy polling');
});

test('busy polling at a low rate is flagged as wasted CPU', async ({ page }) => {
  const rx = new BusyPollPage(page);
  await rx.open();
  await rx.setRate('1k');
  await rx.busyPoll();
  await expect(rx.latest).toHaveAttribute('data-tone', 'warn');
  await expect(rx.latest).toContainText('Interrupts are the cheaper of the two here');
  await expect(page.getByTestId('why')).toContainText('0.0 % of its time on packets');
});

test('Step walks a packet through the active stages with a clock', async ({ page }) => {
  const rx = new BusyPollPage(page);
  await rx.open();
  await rx.busyPoll();
  await rx.step();
  await expect(rx.clock).toContainText('t = 200 ns');
  await rx.step();
  await expect(rx.clock).toContainText('t = 290 ns');
  await rx.expectRowState('deliver', 'here');
  await rx.step();
  await expect(rx.latest).toContainText('The app holds the packet after 320 ns');
  await rx.step();
  await expect(rx.latest).toContainText('This packet is done');
  await rx.back();
  await rx.expectFigure('clock', '290 ns');
  await rx.busyPoll(false);
  await rx.expectFigure('clock', '0 ns');
  await expect(page.getByTestId('narration-history')).toContainText('goes back to the start');
});

test('the crossover follows the stage costs', async ({ page }) => {
  const rx = new BusyPollPage(page);
  await rx.open();
  await rx.pickStage('scheduler wakes the app');
  await rx.setStageCost(710);
  await rx.expectFigure('irq-cpu', '1,000 ns');
  await rx.expectFigure('crossover', '1 M pkt/s');
});

test('a copied link restores the mode, the rate and the packet', async ({ page }) => {
  const rx = new BusyPollPage(page);
  await rx.open();
  await rx.setRate('2M');
  await rx.busyPoll();
  await rx.step();
  const link = await rx.copyLink();
  await page.goto('about:blank');
  await page.goto(link);
  await rx.expectFigure('rate', '2 M pkt/s');
  await rx.expectFigure('clock', '200 ns');
  await expect(rx.busyToggle).toBeChecked();
  await expect(rx.cpu('cheaper')).toContainText('busy polling');
  await rx.expectStep(3);
});

test('the rate slider and the toggle work from the keyboard', async ({ page }) => {
  const rx = new BusyPollPage(page);
  await rx.open();
  await page.getByTestId('rate').focus();
  await page.keyboard.press('ArrowRight');
  await rx.expectFigure('rate', '200 k pkt/s');
  await rx.busyToggle.focus();
  await page.keyboard.press('Space');
  await rx.expectFigure('total', '320 ns');
});

test('axe finds no serious violation, before and after busy polling at a low rate', async ({ page }) => {
  const rx = new BusyPollPage(page);
  await rx.open();
  await expectNoSeriousViolations(page);
  await rx.setRate('1k');
  await rx.busyPoll();
  await expect(rx.latest).toHaveAttribute('data-tone', 'warn');
  await expectNoSeriousViolations(page);
});

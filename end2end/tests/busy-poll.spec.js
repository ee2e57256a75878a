import { test, expect } from './fixtures.js';
import AxeBuilder from '@axe-core/playwright';
import { BusyPollPage } from '../pages/busy-poll-page.js';

async function expectNoSeriousViolations(page) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => ['serious', 'critical'].includes(v.impact));
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
}

test('kernel busy polling takes the interrupt and the wakeup off the path, not the stack', async ({ page }) => {
  const rx = new BusyPollPage(page);
  await rx.open();
  // Interrupt to user is microseconds (calibrated on Tamir's busy-poll numbers).
  await rx.expectFigure('total', '7,700 ns');
  await rx.expectFigure('irqs', 'wake the reader');
  await rx.busyPoll();
  await rx.expectFigure('total', '2,200 ns');
  await rx.expectFigure('saving', '5,500 ns (71.4 %)');
  for (const key of ['msix', 'irq', 'wakeup']) {
    await expect(rx.offLabel(key)).toHaveText('removed by kernel busy polling');
  }
  await rx.expectRowState('stack', 'ahead');
  await rx.expectRowState('recvmsg', 'ahead');
  await rx.expectFigure('irqs', 'still fire');
  await expect(page.getByTestId('why')).toContainText('Plain SO_BUSY_POLL leaves the device IRQ armed');
});

test('SO_PREFER_BUSY_POLL masks the IRQ: same latency, less CPU', async ({ page }) => {
  const rx = new BusyPollPage(page);
  await rx.open();
  await rx.prefer();
  await expect(rx.busyToggle).toBeChecked();
  await expect(page.getByTestId('narration-history')).toContainText('turns on too');
  await rx.expectFigure('total', '2,200 ns');
  await rx.expectFigure('irqs', 'masked');
  await rx.expectFigure('busy-cpu', '10,000 ns');
  await rx.prefer(false);
  await rx.expectFigure('busy-cpu', '11,000 ns');
});

test('a user-space poll-mode driver is a different technique: no syscall, stack or copy', async ({ page }) => {
  const rx = new BusyPollPage(page);
  await rx.open();
  await rx.busyPoll();
  await rx.pmd();
  await expect(rx.busyToggle).not.toBeChecked();
  await expect(page.getByTestId('narration-history')).toContainText('takes the queue away from the kernel');
  await rx.expectFigure('total', '300 ns');
  await rx.expectFigure('irqs', 'not used');
  for (const key of ['stack', 'recvmsg']) {
    await expect(rx.offLabel(key)).toHaveText('removed by a poll-mode driver');
  }
});

test('the packet rate decides which mode costs less CPU', async ({ page }) => {
  const rx = new BusyPollPage(page);
  await rx.open();
  await rx.expectFigure('crossover', '167 k pkt/s');
  await rx.setRate('1k');
  await rx.expectFigure('rate', '1 k pkt/s');
  await expect(rx.cpu('irq-per-packet')).toHaveText('7,000 ns');
  await expect(rx.cpu('busy-per-packet')).toHaveText('1,001,000 ns');
  await expect(rx.cpu('busy-util')).toHaveText('100.0 %');
  await expect(rx.cpu('cheaper')).toContainText('interrupts');

  await rx.setRate('10M');
  await expect(rx.cpu('busy-per-packet')).toHaveText('1,100 ns');
  await expect(rx.cpu('irq-util')).toHaveText('7000.0 %');
  await expect(rx.cpu('cpu-panel')).toContainText('more than a core');
  await expect(rx.cpu('cheaper')).toContainText('busy polling, IRQs still firing');
});

test('polling at a low rate is flagged as wasted CPU', async ({ page }) => {
  const rx = new BusyPollPage(page);
  await rx.open();
  await rx.setRate('1k');
  await rx.busyPoll();
  await expect(rx.latest).toHaveAttribute('data-tone', 'warn');
  await expect(rx.latest).toContainText('Interrupts are the cheaper of the two here');
  await expect(page.getByTestId('why')).toContainText('0.3 % of its time on packets');
});

test('Step walks a packet through the active stages with a clock', async ({ page }) => {
  const rx = new BusyPollPage(page);
  await rx.open();
  await rx.busyPoll();
  await rx.step();
  await expect(rx.clock).toContainText('t = 200 ns');
  await rx.step();
  await expect(rx.clock).toContainText('t = 1,700 ns');
  await rx.expectRowState('stack', 'here');
  await rx.step();
  await expect(rx.latest).toContainText('The app holds the packet after 2,200 ns');
  await rx.step();
  await expect(rx.latest).toContainText('This packet is done');
  await rx.back();
  await rx.expectFigure('clock', '1,700 ns');
  await rx.busyPoll(false);
  await rx.expectFigure('clock', '0 ns');
  await expect(page.getByTestId('narration-history')).toContainText('goes back to the start');
});

test('the crossover follows the stage costs', async ({ page }) => {
  const rx = new BusyPollPage(page);
  await rx.open();
  await rx.pickStage('wake the reader, switch to it');
  await rx.setStageCost(8000);
  await rx.expectFigure('irq-cpu', '11,000 ns');
  await rx.expectFigure('crossover', '100 k pkt/s');
});

test('a copied link restores the mode, the rate and the packet', async ({ page }) => {
  const rx = new BusyPollPage(page);
  await rx.open();
  await rx.setRate('2M');
  await rx.prefer();
  await rx.step();
  const link = await rx.copyLink();
  await page.goto('about:blank');
  await page.goto(link);
  await rx.expectFigure('rate', '2 M pkt/s');
  await rx.expectFigure('clock', '200 ns');
  await expect(rx.busyToggle).toBeChecked();
  await rx.expectFigure('irqs', 'masked');
  await expect(rx.cpu('cheaper')).toContainText('busy polling, IRQs masked');
  await rx.expectStep(3);
});

test('the rate slider and the toggles work from the keyboard', async ({ page }) => {
  const rx = new BusyPollPage(page);
  await rx.open();
  await page.getByTestId('rate').focus();
  await page.keyboard.press('ArrowRight');
  await rx.expectFigure('rate', '200 k pkt/s');
  await rx.busyToggle.focus();
  await page.keyboard.press('Space');
  await rx.expectFigure('total', '2,200 ns');
  await page.getByTestId('use-prefer').focus();
  await page.keyboard.press('Space');
  await rx.expectFigure('irqs', 'masked');
});

test('axe finds no serious violation, before and after polling at a low rate', async ({ page }) => {
  const rx = new BusyPollPage(page);
  await rx.open();
  await expectNoSeriousViolations(page);
  await rx.setRate('1k');
  await rx.busyPoll();
  await expect(rx.latest).toHaveAttribute('data-tone', 'warn');
  await expectNoSeriousViolations(page);
});

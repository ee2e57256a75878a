import { test, expect } from './fixtures.js';
import AxeBuilder from '@axe-core/playwright';
import { SendPathPage } from '../pages/send-path-page.js';

async function expectNoSeriousViolations(page) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => ['serious', 'critical'].includes(v.impact));
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
}

test('the kernel path adds up, and kernel bypass takes three stages away', async ({ page }) => {
  const send = new SendPathPage(page);
  await send.open();
  await send.expectFigure('total', '1,120 ns');
  await send.expectFigure('stages', '8 of 10');
  await expect(send.row('fetch')).toContainText('300 ns · 26.8 %');
  // send() runs the driver in the caller's context: no softirq on the path.
  await expect(send.offLabel('net-tx')).toHaveText('only with qdisc contention or TX queue stopped');
  await send.bypass();
  await send.expectFigure('total', '730 ns');
  await send.expectFigure('saving', '390 ns (34.8 %)');
  for (const key of ['syscall', 'kernel-stack', 'copy']) {
    await send.expectRowState(key, 'off');
    await expect(send.offLabel(key)).toHaveText('removed by kernel bypass');
  }
  await expect(send.saving).toHaveText('saves 390 ns (34.8 %)');
  await expect(send.latest).toContainText('from 1,120 ns to 730 ns');
});

test('a contended qdisc adds the NET_TX stage; kernel bypass has no qdisc', async ({ page }) => {
  const send = new SendPathPage(page);
  await send.open();
  await send.toggle('contended').check();
  await send.expectFigure('total', '1,620 ns');
  await send.expectRowState('net-tx', 'ahead');
  await send.bypass();
  await expect(send.offLabel('net-tx')).toHaveText('removed by kernel bypass');
  await send.expectFigure('total', '730 ns');
});

test('a stopped driver queue also sends through NET_TX, and turns TX push off', async ({ page }) => {
  const send = new SendPathPage(page);
  await send.open();
  await send.txPush();
  await send.toggle('stopped').check();
  await send.expectFigure('total', '1,620 ns');
  await send.expectRowState('net-tx', 'ahead');
  await expect(send.toggle('tx-push')).not.toBeChecked();
  await expect(page.getByTestId('narration-history')).toContainText('TX push needs an empty one');
  await expect(page.getByTestId('why')).toContainText('netif_tx_wake_queue() calls __netif_schedule()');
});

test('TX push removes only the descriptor fetch, and works without bypass', async ({ page }) => {
  const send = new SendPathPage(page);
  await send.open();
  await send.txPush();
  await send.expectFigure('total', '820 ns');
  await expect(send.offLabel('fetch')).toHaveText('removed by TX push');
  await expect(send.toggle('bypass')).not.toBeChecked();
});

test('CTPIO brings kernel bypass with it, and losing bypass loses CTPIO', async ({ page }) => {
  const send = new SendPathPage(page);
  await send.open();
  await send.ctpio();
  await expect(send.toggle('bypass')).toBeChecked();
  await expect(page.getByTestId('narration-history')).toContainText('kernel bypass turns on too');
  await send.expectFigure('total', '140 ns');
  await send.expectFigure('saving', '980 ns (87.5 %)');
  await send.expectRowState('pio', 'ahead');
  for (const key of ['descriptor', 'doorbell', 'fetch', 'dma']) {
    await expect(send.offLabel(key)).toHaveText('removed by CTPIO');
  }

  await send.bypass(false);
  await expect(send.toggle('ctpio')).not.toBeChecked();
  await expect(page.getByTestId('narration-history')).toContainText('turning kernel bypass off turns CTPIO off too');
  await send.expectFigure('total', '1,120 ns');
  await expect(send.offLabel('pio')).toHaveText('only with CTPIO');
});

test('the CTPIO walk: the frame leaves from the PIO write, then the fallback is posted off the wire path', async ({ page }) => {
  const send = new SendPathPage(page);
  await send.open();
  await send.ctpio();
  await send.step();
  await expect(send.clock).toContainText('t = 60 ns');
  await expect(send.latest).toContainText('ef_vi_transmit_ctpio_fallback()');
  await expect(send.latest).toContainText('off the wire path');
  await send.step();
  await expect(send.latest).toContainText('on the wire after 140 ns');
});

test('Step walks one packet with a running clock; Back, Play and a new packet', async ({ page }) => {
  const send = new SendPathPage(page);
  await send.open();
  await send.step();
  await expect(send.clock).toContainText('t = 90 ns');
  await send.expectRowState('syscall', 'here');
  await send.step();
  await expect(send.clock).toContainText('t = 310 ns');
  await send.expectRowState('syscall', 'passed');
  await send.back();
  await send.expectFigure('clock', '90 ns');
  await page.getByTestId('speed').selectOption('4');
  await send.play();
  // Play stops by itself once Step has nothing left to do, and says why.
  await expect(page.getByTestId('play')).toHaveAttribute('aria-pressed', 'false');
  await expect(send.latest).toContainText('This packet is done');
  await expect(page.getByTestId('narration-history')).toContainText('on the wire after 1,120 ns');
  await send.expectRowState('phy', 'here');
  await send.newPacket();
  await send.expectFigure('clock', '0 ns');
  await send.reset();
  await send.expectStep(0);
});

test('a slower stage shows how sensitive the total is', async ({ page }) => {
  const send = new SendPathPage(page);
  await send.open();
  await send.pickStage('NIC reads the descriptor over PCIe');
  await send.setStageCost(900);
  await send.expectFigure('total', '1,720 ns');
  await expect(send.row('fetch')).toContainText('900 ns · 52.3 %');
  await expect(page.getByTestId('stage-cost-value')).toHaveText('900 ns');
  await send.restoreCosts();
  await send.expectFigure('total', '1,120 ns');
});

test('a copied link restores techniques, costs and the packet', async ({ page }) => {
  const send = new SendPathPage(page);
  await send.open();
  await send.txPush();
  await send.pickStage('DMA across PCIe, start of TX');
  await send.setStageCost(500);
  await send.step();
  await send.step();
  await send.expectFigure('total', '1,070 ns');
  const link = await send.copyLink();
  await page.goto('about:blank');
  await page.goto(link);
  await send.expectFigure('total', '1,070 ns');
  await send.expectFigure('clock', '310 ns');
  await expect(send.toggle('tx-push')).toBeChecked();
  await send.expectStep(4);
  await expect(page.getByTestId('link-notice')).toHaveCount(0);
});

test('its controls work from the keyboard', async ({ page }) => {
  const send = new SendPathPage(page);
  await send.open();
  const bypass = send.toggle('bypass');
  for (let i = 0; i < 60; i += 1) {
    await page.keyboard.press('Tab');
    if (await bypass.evaluate((el) => el === document.activeElement)) break;
  }
  await expect(bypass).toBeFocused();
  await page.keyboard.press('Space');
  await send.expectFigure('total', '730 ns');

  await send.row('fetch').getByRole('button').focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('stage-pick')).toHaveValue('7');
  await page.getByTestId('stage-cost').focus();
  await page.keyboard.press('ArrowRight');
  await send.expectFigure('total', '740 ns');
});

test('axe finds no serious violation, before and after CTPIO', async ({ page }) => {
  const send = new SendPathPage(page);
  await send.open();
  await expectNoSeriousViolations(page);
  await send.ctpio();
  await send.step();
  await send.expectFigure('total', '140 ns');
  await expectNoSeriousViolations(page);
});

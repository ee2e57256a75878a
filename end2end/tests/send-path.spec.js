import { test, expect } from './fixtures.js';
import AxeBuilder from '@axe-core/playwright';
import { SendPathPage } from '../pages/send-path-page.js';

async function expectNoSeriousViolations(page) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => ['serious', 'critical'].includes(v.impact));
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
}

test('the kernel path adds up, and kernel bypass takes four stages away', async ({ page }) => {
  const send = new SendPathPage(page);
  await send.open();
  await send.expectFigure('total', '1,230 ns');
  await send.expectFigure('stages', '9 of 10');
  await expect(send.row('fetch')).toContainText('300 ns · 24.4 %');
  await send.bypass();
  await send.expectFigure('total', '730 ns');
  await send.expectFigure('saving', '500 ns (40.7 %)');
  for (const key of ['syscall', 'kernel-stack', 'copy', 'wakeup']) {
    await send.expectRowState(key, 'off');
    await expect(send.offLabel(key)).toHaveText('removed by kernel bypass');
  }
  await expect(send.saving).toHaveText('saves 500 ns (40.7 %)');
  await expect(send.latest).toContainText('from 1,230 ns to 730 ns');
});

test('TX push removes only the descriptor fetch, and works without bypass', async ({ page }) => {
  const send = new SendPathPage(page);
  await send.open();
  await send.txPush();
  await send.expectFigure('total', '930 ns');
  await expect(send.offLabel('fetch')).toHaveText('removed by TX push');
  await expect(send.toggle('bypass')).not.toBeChecked();
});

test('CTPIO brings kernel bypass with it, and losing bypass loses CTPIO', async ({ page }) => {
  const send = new SendPathPage(page);
  await send.open();
  await send.ctpio();
  await expect(send.toggle('bypass')).toBeChecked();
  await expect(page.getByTestId('narration-history')).toContainText('kernel bypass turns on too');
  await send.expectFigure('total', '240 ns');
  await send.expectFigure('saving', '990 ns (80.5 %)');
  await send.expectRowState('pio', 'ahead');
  await expect(send.offLabel('fetch')).toHaveText('removed by CTPIO');
  await expect(send.offLabel('dma')).toHaveText('removed by CTPIO');

  await send.bypass(false);
  await expect(send.toggle('ctpio')).not.toBeChecked();
  await expect(page.getByTestId('narration-history')).toContainText('turning kernel bypass off turns CTPIO off too');
  await send.expectFigure('total', '1,230 ns');
  await expect(send.offLabel('pio')).toHaveText('only with CTPIO');
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
  await expect(page.getByTestId('narration-history')).toContainText('on the wire after 1,230 ns');
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
  await send.expectFigure('total', '1,830 ns');
  await expect(send.row('fetch')).toContainText('900 ns · 49.2 %');
  await expect(page.getByTestId('stage-cost-value')).toHaveText('900 ns');
  await send.restoreCosts();
  await send.expectFigure('total', '1,230 ns');
});

test('a copied link restores techniques, costs and the packet', async ({ page }) => {
  const send = new SendPathPage(page);
  await send.open();
  await send.txPush();
  await send.pickStage('DMA across PCIe, start of TX');
  await send.setStageCost(500);
  await send.step();
  await send.step();
  await send.expectFigure('total', '1,180 ns');
  const link = await send.copyLink();
  await page.goto('about:blank');
  await page.goto(link);
  await send.expectFigure('total', '1,180 ns');
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
  await send.expectFigure('total', '240 ns');
  await expectNoSeriousViolations(page);
});

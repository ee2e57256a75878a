import { test, expect } from './fixtures.js';
import AxeBuilder from '@axe-core/playwright';
import { RingPage } from '../pages/ring-page.js';

async function expectNoSeriousViolations(page) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => ['serious', 'critical'].includes(v.impact));
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
}

test('an RX round trip: post, doorbell, DMA, write-back, reap', async ({ page }) => {
  const ring = new RingPage(page);
  await ring.open();
  await ring.expectDescriptor(0, 'FREE');

  await ring.post();
  await ring.expectDescriptor(0, 'POSTED');
  await expect(ring.latest).toContainText('Driver wrote descriptor 0');
  // Intel RX descriptors carry only the address: two stores, no length.
  await ring.expectFigure('pending', 2);

  await ring.barrier();
  await ring.expectFigure('pending', 0);
  await expect(ring.latest).toContainText('wmb()');

  await ring.doorbell();
  await ring.expectFigure('doorbell', 1);
  await ring.expectDescriptor(0, 'NIC');
  await expect(ring.latest).toContainText('writel() wrote TAIL = 1');

  await ring.frameArrives();
  await expect(page.getByTestId('fifo')).toContainText('#1');

  await ring.step();
  await expect(ring.latest).toContainText('NIC read descriptor 0');
  await ring.step();
  await expect(ring.latest).toContainText('DMA');
  await ring.step();
  await ring.expectDescriptor(0, 'DD');
  await expect(ring.latest).toContainText('PKT_LEN');
  await ring.expectFigure('head', 1);

  await ring.reap();
  await ring.expectDescriptor(0, 'FREE');
  await ring.expectFigure('delivered', 1);
  await expect(page.getByTestId('delivered')).toContainText('#1');
  await ring.expectFigure('corrupted', 0);
});

test('writel() orders the descriptor stores before the doorbell', async ({ page }) => {
  const ring = new RingPage(page);
  await ring.open();
  await ring.post();
  await ring.expectFigure('pending', 2);
  await ring.doorbell();
  await ring.expectFigure('pending', 0);
  await expect(ring.latest).toContainText('writel() first made the 2 pending stores visible');
  await expect(page.getByTestId('why')).toContainText('writel() waits for every earlier store');
});

test('Back restores the previous state and Reset the initial one', async ({ page }) => {
  const ring = new RingPage(page);
  await ring.open();
  await ring.post();
  await ring.post();
  await ring.expectDescriptor(1, 'POSTED');
  await ring.expectFigure('tail', 2);

  await ring.back();
  await ring.expectDescriptor(1, 'FREE');
  await ring.expectFigure('tail', 1);
  await expect(ring.latest).toContainText('Stepped back');

  await ring.reset();
  await ring.expectDescriptor(0, 'FREE');
  await ring.expectFigure('tail', 0);
  await ring.expectStep(0);
  await expect(page.getByTestId('back')).toBeDisabled();
});

test('impossible actions are refused with the reason', async ({ page }) => {
  const ring = new RingPage(page);
  await ring.open();
  await ring.reap();
  await expect(ring.latest).toHaveAttribute('data-tone', 'refused');
  await expect(ring.latest).toContainText('Nothing to reap');
  await ring.post();
  await ring.doorbell();
  await ring.doorbell();
  await expect(ring.latest).toHaveAttribute('data-tone', 'refused');
  await expect(ring.latest).toContainText('Nothing new to publish');
  await ring.expectFigure('doorbell', 1);
  await expect(page.getByTestId('ring-fill')).toHaveText('1 of 7 in use');
  for (let i = 0; i < 7; i += 1) await ring.post();
  await expect(ring.latest).toContainText('The ring is full');
  await expect(page.getByTestId('ring-fill')).toHaveText('full (7 of 8)');
  await ring.expectFigure('free', 1);
});

test('TX mode posts filled buffers; DD comes back only for RS', async ({ page }) => {
  const ring = new RingPage(page);
  await ring.open();
  await ring.chooseTx();
  await ring.expectFigure('mode', 'TX');
  await expect(page.getByTestId('arrive')).toHaveCount(0);
  await ring.post();
  await expect(ring.latest).toContainText('RS set');
  await ring.barrier();
  await ring.doorbell();
  await ring.step();
  await ring.step();
  await expect(ring.latest).toContainText('onto the wire');
  await ring.step();
  await expect(ring.latest).toContainText('had RS set, so it wrote DD back');
  await ring.expectDescriptor(0, 'DD');
  await ring.reap();
  await ring.expectFigure('delivered', 1);

  await page.getByTestId('rs-every').uncheck();
  await ring.post();
  await expect(ring.latest).toContainText('no RS');
  await ring.doorbell();
  for (let i = 0; i < 3; i += 1) await ring.step();
  await ring.expectDescriptor(0, 'SENT');
  await ring.reap();
  await expect(ring.latest).toContainText('carried no RS bit');
  await ring.chooseRx();
  await ring.expectFigure('mode', 'RX');
  await ring.expectFigure('delivered', 0);
});

test('break it: a relaxed doorbell usually works, then one DMA reads a half-written descriptor', async ({ page }) => {
  const ring = new RingPage(page);
  await ring.open();
  await expectNoSeriousViolations(page);
  await ring.relaxedDoorbell();
  await expect(ring.latest).toContainText('Break it');
  await expect(page.getByTestId('doorbell')).toContainText('writel_relaxed');

  // Round 1: the stores win the race.
  await ring.post();
  await ring.doorbell();
  await expect(ring.latest).toHaveAttribute('data-tone', 'warn');
  await ring.frameArrives();
  await ring.step();
  await expect(ring.latest).toContainText('landed just in time');
  await ring.step();
  await ring.step();
  await ring.reap();
  await ring.expectFigure('delivered', 1);
  await ring.expectFigure('corrupted', 0);

  // Round 2: the NIC's read wins.
  await ring.roundUntilDma();
  await expect(ring.latest).toContainText('Corrupted DMA');
  await expect(page.getByTestId('narration-history')).toContainText("before the CPU's stores landed");
  await ring.expectFigure('corrupted', 1);
  await ring.expectFigure('races', '2 (1)');
  await expect(page.getByTestId('damage')).toContainText('Corrupted DMA on descriptor 1');
  await expect(page.getByTestId('why')).toContainText('most races are won by the stores');
  await expectNoSeriousViolations(page);
});

test('break it: without dma_rmb() a reap during write-back reads a stale length', async ({ page }) => {
  const ring = new RingPage(page);
  await ring.open();
  await ring.skipRmb();
  await expect(ring.latest).toContainText('dma_rmb()');
  await ring.roundUntilDma();
  await ring.reap();
  await expect(ring.latest).toContainText('This time the loads ran in order');
  await ring.step();
  await ring.reap();
  await ring.expectFigure('delivered', 1);

  await ring.roundUntilDma();
  await ring.reap();
  await expect(page.getByTestId('narration-history')).toContainText('Torn read of descriptor 1');
  await ring.expectFigure('corrupted', 1);
  await expect(page.getByTestId('delivered')).toContainText('#2 · 0 B');
  await expect(page.getByTestId('why')).toContainText('loaded the length before DD');
});

test('Play runs the NIC until it is idle, then pauses itself', async ({ page }) => {
  const ring = new RingPage(page);
  await ring.open();
  await ring.chooseTx();
  await ring.post();
  await ring.barrier();
  await ring.doorbell();
  await page.getByTestId('speed').selectOption('4');
  await ring.play();
  await ring.expectDescriptor(0, 'DD');
  await expect(page.getByTestId('play')).toHaveAttribute('aria-pressed', 'false');
  await expect(ring.latest).toHaveAttribute('data-tone', 'refused');
  await expect(ring.latest).toContainText('The NIC is idle');
});

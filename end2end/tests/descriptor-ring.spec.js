import { test, expect } from './fixtures.js';
import { RingPage } from '../pages/ring-page.js';

test('an RX round trip: post, barrier, doorbell, DMA, reap', async ({ page }) => {
  const ring = new RingPage(page);
  await ring.open();
  await ring.expectDescriptor(0, 'FREE');

  await ring.post();
  await ring.expectDescriptor(0, 'OWN');
  await expect(ring.latest).toContainText('Driver wrote descriptor 0');
  await ring.expectFigure('pending', 3);

  await ring.barrier();
  await ring.expectFigure('pending', 0);
  await expect(ring.latest).toContainText('wmb()');

  await ring.doorbell();
  await ring.expectFigure('doorbell', 1);
  await expect(ring.latest).toContainText('Doorbell');

  await ring.frameArrives();
  await expect(page.getByTestId('fifo')).toContainText('#1');

  await ring.step();
  await expect(ring.latest).toContainText('NIC read descriptor 0');
  await ring.step();
  await expect(ring.latest).toContainText('DMA');
  await ring.step();
  await ring.expectDescriptor(0, 'DD');
  await ring.expectFigure('head', 1);

  await ring.reap();
  await ring.expectDescriptor(0, 'FREE');
  await ring.expectFigure('delivered', 1);
  await expect(page.getByTestId('delivered')).toContainText('#1');
  await ring.expectFigure('corrupted', 0);
});

test('Back restores the previous state and Reset the initial one', async ({ page }) => {
  const ring = new RingPage(page);
  await ring.open();
  await ring.post();
  await ring.post();
  await ring.expectDescriptor(1, 'OWN');
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
  await expect(ring.latest).toContainText('Issue wmb() first');
  await ring.expectFigure('doorbell', 0);
  await expect(page.getByTestId('ring-fill')).toHaveText('1 of 7 in use');
  for (let i = 0; i < 7; i += 1) await ring.post();
  await expect(ring.latest).toContainText('The ring is full');
  await expect(page.getByTestId('ring-fill')).toHaveText('full (7 of 8)');
  await ring.expectFigure('free', 1);
});

test('TX mode posts filled buffers that the NIC sends', async ({ page }) => {
  const ring = new RingPage(page);
  await ring.open();
  await ring.chooseTx();
  await ring.expectFigure('mode', 'TX');
  await expect(page.getByTestId('arrive')).toHaveCount(0);
  await ring.post();
  await ring.barrier();
  await ring.doorbell();
  await ring.step();
  await ring.step();
  await expect(ring.latest).toContainText('onto the wire');
  await ring.step();
  await ring.reap();
  await ring.expectFigure('delivered', 1);
  await ring.chooseRx();
  await ring.expectFigure('mode', 'RX');
  await ring.expectFigure('delivered', 0);
});

test('skipping the barrier lets the NIC DMA with a half-written descriptor', async ({ page }) => {
  const ring = new RingPage(page);
  await ring.open();
  await ring.skipBarrier();
  await expect(ring.latest).toContainText('Break it');
  await ring.post();
  await ring.doorbell();
  await expect(ring.latest).toHaveAttribute('data-tone', 'warn');
  await ring.frameArrives();
  await ring.step();
  await expect(ring.latest).toHaveAttribute('data-tone', 'warn');
  await expect(page.getByTestId('narration-history')).toContainText('before the CPU');
  await ring.step();
  await expect(ring.latest).toContainText('Corrupted DMA');
  await ring.expectFigure('corrupted', 1);
  await expect(page.getByTestId('damage')).toContainText('Corrupted DMA on descriptor 0');
  await expect(page.getByTestId('why')).toContainText('half-written descriptor');
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

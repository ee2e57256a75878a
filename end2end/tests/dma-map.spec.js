import { test, expect } from './fixtures.js';
import AxeBuilder from '@axe-core/playwright';
import { DmaMapPage } from '../pages/dma-map-page.js';

async function expectNoSeriousViolations(page) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => ['serious', 'critical'].includes(v.impact));
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
}

test('per-buffer mapping: each buffer misses the IOTLB, the ring mapping hits', async ({ page }) => {
  const dm = new DmaMapPage(page);
  await dm.open();
  await dm.expectFigure('mode', 'lazy');
  await dm.steps(4);
  await dm.expectState('slot-3', 'mapped');
  await dm.steps(1);
  await expect(dm.latest).toContainText('an IOTLB miss and a 400 ns page walk');
  await dm.expectFigure('misses', 2);
  await dm.steps(3);
  await dm.expectFigure('frames', 2);
  await dm.expectFigure('hits', 1);
  await dm.expectFigure('misses', 3);
  await expect(page.getByTestId('why')).toContainText('Per-buffer mapping defeats the IOTLB');
  await expect(page.getByTestId('buffers-note')).toContainText('Real RX paths keep pages mapped and recycle them');
});

test('recycling keeps pages mapped: no unmap, no invalidation, and the IOTLB hits', async ({ page }) => {
  const dm = new DmaMapPage(page);
  await dm.open();
  await dm.recycling();
  await dm.strict();
  await dm.expectFigure('mode', 'strict');
  await dm.steps(5);
  await dm.steps(1);
  await expect(dm.latest).toContainText('No unmap, so no IOTLB invalidation');
  await dm.expectFigure('recycled', 1);
  await dm.expectFigure('unmaps', 0);
  await dm.expectFigure('invalidations', 0);
  await dm.expectState('slot-0', 'mapped');
  await expect(page.getByTestId('buffers-note')).toContainText('Recycling: pages stay mapped');
  await expect(page.getByTestId('why')).toContainText('mapping per frame would have cost 1 more of each, and 1 IOTLB invalidation');
  // One step back, the frame is still in its page: releasing that page for
  // good is what unmaps it, and only then does strict mode invalidate.
  await dm.back();
  await dm.expectFigure('recycled', 0);
  await dm.unmap();
  await expect(dm.latest).toContainText('The page leaves the pool for good');
  await dm.expectFigure('invalidations', 1);
  await expectNoSeriousViolations(page);
});

test('lazy unmap leaves a stale translation; a late device write lands in a reused page', async ({ page }) => {
  const dm = new DmaMapPage(page);
  await dm.open();
  await expectNoSeriousViolations(page);
  await dm.steps(6);
  await expect(dm.latest).toContainText('joins the flush queue (1 waiting)');
  await dm.expectFigure('stale', 1);
  await dm.expectFigure('queued', 1);
  await dm.expectFigure('invalidations', 0);
  await dm.expectState('tlb-1', 'stale');
  await dm.staleDma();
  await expect(dm.latest).toHaveAttribute('data-tone', 'fault');
  await expect(dm.latest).toContainText('a page that now belongs to another task');
  await dm.expectFigure('corrupted', 1);
  await expect(page.getByTestId('pages')).toContainText('reused: HIT');
  await expectNoSeriousViolations(page);
  await dm.flush();
  await dm.expectFigure('stale', 0);
  await dm.expectFigure('invalidations', 1);
  await dm.staleDma();
  await dm.expectFigure('faults', 1);
});

test('strict mode pays an invalidation per unmap and blocks the late write', async ({ page }) => {
  const dm = new DmaMapPage(page);
  await dm.open();
  await dm.strict();
  await dm.expectFigure('mode', 'strict');
  await dm.steps(6);
  await dm.expectFigure('invalidations', 1);
  await dm.expectFigure('inval-ns', '1,000 ns');
  await dm.expectFigure('stale', 0);
  await dm.staleDma();
  await expect(dm.faultLog).toContainText('DMAR: [DMA Write NO_PASID] Request device [03:00.0] fault addr 0xfff00000 [fault reason 0x05]');
  await dm.expectFigure('corrupted', 0);
});

test('impossible moves are refused with the reason', async ({ page }) => {
  const dm = new DmaMapPage(page);
  await dm.open();
  await dm.unmap();
  await expect(dm.latest).toHaveAttribute('data-tone', 'refused');
  await expect(dm.latest).toContainText('nothing to unmap');
  await dm.flush();
  await expect(dm.latest).toContainText('The flush queue is empty');
  await dm.staleDma();
  await expect(dm.latest).toContainText('No buffer has been unmapped yet');
});

test('a copied link restores the mode and the mappings', async ({ page }) => {
  const dm = new DmaMapPage(page);
  await dm.open();
  await dm.strict();
  await dm.steps(5);
  const link = await dm.copyLink();
  await page.goto(link);
  await dm.expectFigure('mode', 'strict');
  await dm.expectFigure('frames', 1);
  await dm.expectState('slot-0', 'written');
  await expect(page.getByTestId('link-notice')).toHaveCount(0);
});

test('its controls work from the keyboard', async ({ page }) => {
  const dm = new DmaMapPage(page);
  await dm.open();
  const map = page.getByTestId('map');
  await map.focus();
  await page.keyboard.press('Enter');
  await dm.expectState('slot-0', 'mapped');
  await page.getByTestId('write').focus();
  await page.keyboard.press(' ');
  await dm.expectFigure('frames', 1);
  await page.getByTestId('unmap').focus();
  await page.keyboard.press('Enter');
  await dm.expectFigure('stale', 1);
});

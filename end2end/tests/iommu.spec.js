import { test, expect } from './fixtures.js';
import AxeBuilder from '@axe-core/playwright';
import { IommuPage } from '../pages/iommu-page.js';

async function expectNoSeriousViolations(page) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => ['serious', 'critical'].includes(v.impact));
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
}

test('a mapped DMA is translated and keeps its offset within the page', async ({ page }) => {
  const iommu = new IommuPage(page);
  await iommu.open();
  await iommu.expectFigure('entries', 2);
  await iommu.preset('0x1234');
  await iommu.expectVerdict('allowed', 'ALLOWED → 0x4234');
  await expect(iommu.lastDma).toContainText('DMA Write 0x1234');
  await expect(iommu.latest).toContainText('PA = 0x4234');
  await iommu.expectFigure('allowed', 1);
  await expect(iommu.region('rx')).toContainText('device I/O 64 B');
  await iommu.expectRegion('rx', 'intact');
});

test('an address with no entry, or without the permission, is blocked and logged', async ({ page }) => {
  const iommu = new IommuPage(page);
  await iommu.open();
  await iommu.preset('0x5000');
  await iommu.expectVerdict('blocked', 'BLOCKED');
  await expect(iommu.faultLog).toContainText(
    'DMAR: [DMA Write NO_PASID] Request device [03:00.0] fault addr 0x5000 [fault reason 0x05] PTE Write access is not set',
  );
  await expect(iommu.latest).toHaveAttribute('data-tone', 'fault');
  // A write is posted: no completion carries the error back.
  await expect(iommu.latest).toContainText('no answer goes back');
  await iommu.expectFigure('blocked', 1);

  await iommu.chooseRead();
  await iommu.preset('0x1234');
  // The fault record keeps the page address, not the offset.
  await expect(iommu.faultLog).toContainText('[DMA Read NO_PASID] Request device [03:00.0] fault addr 0x1000 [fault reason 0x06] PTE Read access is not set');
  await expect(iommu.latest).toContainText('allows only WRITE');
  await expect(iommu.latest).toContainText('Unsupported Request status');
  await iommu.preset('0x2000');
  await iommu.expectVerdict('allowed', 'ALLOWED → 0x8000');
  await iommu.expectFigure('harmed', 0);
});

test('malformed addresses are refused with a clear message', async ({ page }) => {
  const iommu = new IommuPage(page);
  await iommu.open();
  await iommu.addr.fill('0x12g4');
  await expect(iommu.addrHelp).toContainText("'g' is not a hex digit");
  await expect(iommu.addr).toHaveAttribute('aria-invalid', 'true');
  await page.getByTestId('dma-go').click();
  await expect(iommu.latest).toHaveAttribute('data-tone', 'refused');
  await expect(iommu.latest).toContainText("Not an address: 'g' is not a hex digit");
  await iommu.expectStep(0);

  await iommu.dmaTo('');
  await expect(iommu.latest).toContainText('Type an address in hex');
  await iommu.dmaTo('0x1_0000_0000_0000_0000');
  await expect(iommu.latest).toContainText('more than 64 bits');

  await iommu.addr.fill('1_0c0');
  await expect(iommu.addr).toHaveAttribute('aria-invalid', 'false');
  await page.getByTestId('dma-go').click();
  await iommu.expectVerdict('allowed', 'ALLOWED → 0x40c0');
  await iommu.expectStep(1);
});

test('map and unmap pages as a VFIO user, with impossible requests refused', async ({ page }) => {
  const iommu = new IommuPage(page);
  await iommu.open();
  await iommu.map('0x3000', '0x7fa0_2000');
  await expect(iommu.entry('0x3000')).toContainText('spare DMA memory');
  await expect(iommu.entry('0x3000')).toContainText('0x7fa02000');
  await expect(iommu.entry('0x3000')).toContainText('→ 0x6000');
  await expect(iommu.latest).toContainText('pinned the page behind vaddr 0x7fa02000');
  await expect(iommu.latest).toContainText('VFIO_IOMMU_MAP_DMA');
  await iommu.expectFigure('entries', 3);
  await expect(page.getByTestId('iova-0x3000')).toHaveAttribute('data-state', 'mapped');
  await iommu.dmaTo('0x3abc');
  await iommu.expectVerdict('allowed', 'ALLOWED → 0x6abc');

  await iommu.unmap('0x3000');
  await expect(iommu.entry('0x3000')).toHaveCount(0);
  await iommu.dmaTo('0x3abc');
  await iommu.expectVerdict('blocked');

  await iommu.map('0x5001', '0x7fa0_2000');
  await expect(iommu.latest).toContainText('not page-aligned');
  // A physical address is not a vaddr of this process: nothing to pin.
  await iommu.map('0x5000', '0x0000');
  await expect(iommu.latest).toContainText('EFAULT');
  await iommu.map('0x1000', '0x7fa0_2000');
  await expect(iommu.latest).toContainText('EEXIST');
  await iommu.map('0xfee0_0000', '0x7fa0_2000');
  await expect(iommu.latest).toContainText('refuses it at map time (EINVAL)');
  await iommu.map('0x5000', '0x7fa0_2000', { read: false, write: false });
  await expect(iommu.latest).toContainText('READ, WRITE or both');
  await iommu.expectFigure('entries', 2);
});

test('break it: in passthrough a stray write lands in kernel memory', async ({ page }) => {
  const iommu = new IommuPage(page);
  await iommu.open();
  await expectNoSeriousViolations(page);
  await iommu.passthrough();
  await iommu.expectFigure('mode', 'PASSTHROUGH');
  await expect(page.getByTestId('iommu-mode')).toContainText('PASSTHROUGH');
  await iommu.preset('0xf000');
  await iommu.expectVerdict('unchecked', 'UNCHECKED → 0xf000');
  await iommu.expectRegion('ptables', 'harmed');
  await expect(iommu.region('ptables')).toContainText('OVERWRITTEN 64 B');
  await expect(page.getByTestId('damage')).toContainText('page tables overwritten');
  await expect(iommu.latest).toHaveAttribute('data-tone', 'fault');
  await iommu.expectFigure('harmed', 1);
  await iommu.expectFigure('blocked', 0);
  await expect(page.getByTestId('why')).toContainText('page tables');

  await iommu.chooseRead();
  await iommu.preset('0x0100');
  await iommu.expectRegion('ktext', 'harmed');
  await expect(iommu.region('ktext')).toContainText('LEAKED 64 B');
  await expectNoSeriousViolations(page);

  await iommu.back();
  await iommu.expectRegion('ktext', 'intact');
  await iommu.expectRegion('ptables', 'harmed');
  await iommu.reset();
  await iommu.expectStep(0);
  await iommu.expectFigure('mode', 'TRANSLATING');
  await iommu.expectRegion('ptables', 'intact');
});

test('an unmapped IOVA past the drawn pages is fault 0x05/0x06; past 48 bits it is beyond MGAW', async ({ page }) => {
  const iommu = new IommuPage(page);
  await iommu.open();
  await iommu.dmaTo('0x1_0000');
  await expect(iommu.faultLog).toContainText('fault addr 0x10000 [fault reason 0x05] PTE Write access is not set');
  await iommu.dmaTo('0x1_0000_0000_0000');
  await expect(iommu.faultLog).toContainText('[fault reason 0x04] Access beyond MGAW');
});

test('Step runs ordinary traffic through the mappings', async ({ page }) => {
  const iommu = new IommuPage(page);
  await iommu.open();
  await iommu.step();
  await iommu.expectVerdict('allowed', 'ALLOWED → 0x4000');
  await iommu.step();
  await iommu.expectVerdict('allowed', 'ALLOWED → 0x8000');
  await iommu.expectFigure('dmas', 2);
  await iommu.unmap('0x1000');
  await iommu.step();
  await iommu.expectVerdict('blocked', 'DMA Write 0x1040');
  await expect(iommu.faultLog).toContainText('fault addr 0x1000 ');
});

test('a copied link reopens the same IOMMU state', async ({ page }) => {
  const iommu = new IommuPage(page);
  await iommu.open();
  await iommu.map('0x4000', '0x7fa0_4000', { read: true, write: false });
  await iommu.passthrough();
  await iommu.preset('0x0100');
  const link = await iommu.copyLink();
  await page.goto(link);
  await iommu.expectStep(3);
  await iommu.expectFigure('mode', 'PASSTHROUGH');
  await iommu.expectFigure('entries', 3);
  await expect(iommu.entry('0x4000')).toContainText('READ');
  await iommu.expectRegion('ktext', 'harmed');
  await expect(page.getByTestId('link-notice')).toHaveCount(0);
});

test('the IOMMU controls work from the keyboard', async ({ page }) => {
  const iommu = new IommuPage(page);
  await iommu.open();
  const preset = page.getByTestId('preset-0x1000');
  for (let i = 0; i < 60; i += 1) {
    await page.keyboard.press('Tab');
    if (await preset.evaluate((el) => el === document.activeElement)) break;
  }
  await expect(preset).toBeFocused();
  await page.keyboard.press('Enter');
  await iommu.expectVerdict('allowed', 'ALLOWED');
  await iommu.addr.focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('0xf00');
  await page.keyboard.press('Enter');
  await iommu.expectVerdict('blocked');
  await iommu.expectStep(2);
  const toggle = page.getByTestId('passthrough');
  await toggle.focus();
  await page.keyboard.press(' ');
  await iommu.expectFigure('mode', 'PASSTHROUGH');
});

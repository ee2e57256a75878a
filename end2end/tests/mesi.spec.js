import { test, expect } from './fixtures.js';
import { expectNoSeriousAxe } from './axe.js';
import { MesiPage } from '../pages/mesi-page.js';

test('read, read, write: E then S, S then M, I', async ({ page }) => {
  const mesi = new MesiPage(page);
  await mesi.open();
  await mesi.expectStates('I', 'I');
  await mesi.read('a');
  await mesi.expectStates('E', 'I');
  await mesi.expectFigure('bus-op', 'BusRd');
  await mesi.expectFigure('supplier', 'memory');
  await mesi.read('b');
  await mesi.expectStates('S', 'S');
  await mesi.write('a');
  await mesi.expectStates('M', 'I');
  await expect(mesi.bus).toHaveAttribute('data-state', 'BusUpgr from A · data from —');
  await expect(mesi.latest).toContainText('Core B snoops the BusUpgr: S → I (invalidated).');
  await mesi.expectFigure('states', 'A: M · B: I');
  await mesi.expectFigure('memory', 'stale');
  await expect(page.getByTestId('seq-3')).toContainText('A writes line 0');
  await expect(page.getByTestId('seq-1')).toContainText('E');
  await expect(mesi.traffic('msi', 'bus')).toHaveText('3');
  await expect(mesi.traffic('mesi', 'upgr')).toHaveText('1');
  await expect(page.getByTestId('proto-msi')).toHaveAttribute('data-state', 'A: M · B: I');
});

test('the tour: E saves MESI the upgrade, O saves MOESI a write-back', async ({ page }) => {
  const mesi = new MesiPage(page);
  await mesi.open();
  for (let i = 0; i < 7; i += 1) await mesi.step();
  await mesi.expectStep(7);
  await mesi.expectFigure('traffic-msi', '5 bus · 2 WB');
  await mesi.expectFigure('traffic-mesi', '4 bus · 2 WB');
  await mesi.expectFigure('traffic-moesi', '5 bus · 1 WB');
  await expect(mesi.traffic('msi', 'upgr')).toHaveText('2');
  await expect(mesi.traffic('mesi', 'upgr')).toHaveText('1');
  await expect(mesi.traffic('moesi', 'wb')).toHaveText('1');
  await page.getByTestId('proto-moesi').click();
  await mesi.expectFigure('protocol', 'MOESI');
  await expect(page.getByTestId('protocol-moesi')).toBeChecked();
  await expect(page.getByTestId('seq-3')).toContainText('core A');
  await expect(page.getByTestId('seq-3')).toContainText('stale');
  await mesi.step();
  await expect(mesi.latest).toHaveAttribute('data-tone', 'refused');
  await expect(mesi.latest).toContainText('Step only plays the guided tour');
});

test('break it: without invalidation two cores hold the line M and a read is stale', async ({ page }) => {
  // axe takes 10–20 s on a shared machine; two runs need more than the default 30 s.
  test.slow();
  const mesi = new MesiPage(page);
  await mesi.open();
  await expectNoSeriousAxe(page);
  await mesi.invalidation(false);
  await expect(page.getByTestId('invalidation')).not.toBeChecked();
  await mesi.read('a');
  await mesi.read('b');
  await mesi.write('a');
  await expect(page.getByTestId('narration-history')).toContainText('Core B ignores the BusUpgr (invalidation off) and keeps its stale copy.');
  await mesi.write('b');
  await mesi.expectStates('M', 'M');
  await mesi.read('a');
  await expect(mesi.latest).toHaveAttribute('data-tone', 'fault');
  await expect(mesi.latest).toContainText('Stale read: core A got 1, but the last write to line 0 stored 2.');
  await mesi.expectFigure('stale-reads', 1);
  await expect(mesi.tile(0)).toHaveClass(/fault/);
  await expect(page.getByTestId('seq-5')).toHaveAttribute('data-state', 'broken');
  await expectNoSeriousAxe(page);
});

test('evicting a line a core does not hold is refused with the reason', async ({ page }) => {
  const mesi = new MesiPage(page);
  await mesi.open();
  await expect(page.getByTestId('evict-b')).toHaveClass(/refused/);
  await mesi.evict('b');
  await expect(mesi.latest).toHaveAttribute('data-tone', 'refused');
  await expect(mesi.latest).toContainText('Core B holds no copy of line 0: there is nothing to evict.');
  await mesi.expectStep(0);
});

test('a copied link reopens the same protocol state in a fresh page', async ({ page, browser }) => {
  const mesi = new MesiPage(page);
  await mesi.open();
  for (let i = 0; i < 3; i += 1) await mesi.step();
  await mesi.protocol('msi');
  await mesi.expectFigure('protocol', 'MSI');
  const link = await mesi.copyLink();
  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(link);
  const again = new MesiPage(other);
  await again.expectStep(4);
  await again.expectFigure('protocol', 'MSI');
  await again.expectStates('S', 'S');
  await again.expectFigure('traffic-msi', '3 bus · 1 WB');
  await expect(other.getByTestId('link-notice')).toHaveCount(0);
  await fresh.close();
});

test('its controls work from the keyboard', async ({ page }) => {
  const mesi = new MesiPage(page);
  await mesi.open();
  await page.getByTestId('read-a').focus();
  await page.keyboard.press('Enter');
  await mesi.expectStates('E', 'I');
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('write-a')).toBeFocused();
  await page.keyboard.press(' ');
  await mesi.expectStates('M', 'I');
  await page.getByTestId('protocol-mesi').focus();
  await page.keyboard.press('ArrowRight');
  await mesi.expectFigure('protocol', 'MOESI');
  await page.getByTestId('invalidation').focus();
  await page.keyboard.press(' ');
  await expect(page.getByTestId('invalidation')).not.toBeChecked();
});

test('four cores and two lines', async ({ page }) => {
  const mesi = new MesiPage(page);
  await mesi.open();
  await page.getByTestId('cores').fill('4');
  await page.getByTestId('lines').fill('2');
  await mesi.read('d');
  await page.getByTestId('line-1').check();
  await mesi.write('c');
  await expect(mesi.tile(3, 0)).toHaveAttribute('data-state', 'E');
  await expect(mesi.tile(2, 1)).toHaveAttribute('data-state', 'M');
  await mesi.expectFigure('states', 'A: I · B: I · C: I · D: E | A: I · B: I · C: M · D: I');
});

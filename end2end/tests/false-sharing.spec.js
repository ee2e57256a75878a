import { test, expect } from './fixtures.js';
import { expectNoSeriousAxe } from './axe.js';
import { FalseSharingPage } from '../pages/false-sharing-page.js';

test('on one line every write moves the line; padded, the transfers stop', async ({ page }) => {
  const fs = new FalseSharingPage(page);
  await fs.open();
  await fs.expectLine(0, 0, 'I');
  await fs.steps(4);
  await fs.expectFigure('progress', '4/48');
  await fs.expectLine(0, 0, 'I');
  await fs.expectLine(1, 0, 'M');
  await expect(fs.bus()).toHaveText('B: BusRdX · line moves A → B, A invalidated · 175 cycles');
  await fs.expectFigure('transfers-shared', 3);
  await fs.expectFigure('invalidations-shared', 3);
  await fs.expectFigure('transfers-padded', 0);
  await expect(fs.compare('cycles', 'shared')).toHaveText('875');
  await expect(fs.compare('cycles', 'padded')).toHaveText('710');
  await fs.steps(6);
  await fs.expectFigure('cycles-shared', 1925);
  await fs.expectFigure('cycles-padded', 740);
  await fs.expectFigure('slowdown', '2.6×');
  await expect(fs.compare('per-write', 'shared')).toHaveText('192.5');
  await expect(fs.compare('per-write', 'padded')).toHaveText('74.0');
});

test('break it and fix it: the layout in front, one line against alignas(64)', async ({ page }) => {
  const fs = new FalseSharingPage(page);
  await fs.open();
  await fs.steps(4);
  await expect(page.getByTestId('transfer')).toHaveCount(1);
  await fs.layout('padded');
  await expect(page.getByTestId('layout')).toHaveText('struct { alignas(64) long a; alignas(64) long b; };');
  await fs.expectLine(0, 0, 'M');
  await fs.expectLine(1, 1, 'M');
  await fs.expectLine(0, 1, 'I');
  await fs.expectLine(1, 0, 'I');
  await expect(fs.bus()).toHaveText('B: hit in M, no bus traffic, 5 cycles');
  await expect(page.getByTestId('transfer')).toHaveCount(0);
  await fs.step();
  await expect(fs.bus()).toHaveText('A: hit in M, no bus traffic, 5 cycles');
  await fs.expectFigure('transfers-padded', 0);
  await fs.layout('shared');
  await fs.expectLine(0, 0, 'M');
  await expect(fs.bus()).toHaveText('A: BusRdX · line moves B → A, B invalidated · 175 cycles');
});

test('a write after the last one is refused with the reason', async ({ page }) => {
  const fs = new FalseSharingPage(page);
  await fs.open();
  await fs.steps(48);
  await fs.expectFigure('progress', '48/48');
  await fs.expectFigure('transfers-shared', 47);
  await fs.expectFigure('slowdown', '9.2×');
  await expect(page.getByTestId('write-a')).toHaveClass(/refused/);
  await fs.writeA();
  await expect(fs.latest).toHaveAttribute('data-tone', 'refused');
  await expect(fs.latest).toContainText('All 48 writes are done: Reset to run again.');
});

test('a share link restores the pattern, the layout and the counts', async ({ page, browser }) => {
  const fs = new FalseSharingPage(page);
  await fs.open();
  await page.getByTestId('run-a').fill('3');
  await fs.steps(8);
  await fs.layout('padded');
  await fs.expectFigure('transfers-shared', 3);
  const link = await fs.copyLink();
  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(link);
  const again = new FalseSharingPage(other);
  await again.expectFigure('writes-a', 6);
  await again.expectFigure('writes-b', 2);
  await again.expectFigure('transfers-shared', 3);
  await expect(other.getByTestId('layout-padded')).toBeChecked();
  await again.expectLine(0, 0, 'M');
  await again.expectStep(10);
  await expect(other.getByTestId('link-notice')).toHaveCount(0);
  await fresh.close();
});

test('its controls work from the keyboard', async ({ page }) => {
  const fs = new FalseSharingPage(page);
  await fs.open();
  await page.getByTestId('run-a').focus();
  await page.keyboard.press('ArrowRight');
  await expect(fs.latest).toContainText('Pattern 2:1: A writes a 2 times in a row, then B writes b 1 time.');
  await page.getByTestId('write-b').focus();
  await page.keyboard.press('Enter');
  await fs.expectFigure('writes-b', 1);
  await page.getByTestId('protocol-mesi').focus();
  await page.keyboard.press('ArrowRight');
  await expect(fs.latest).toContainText('under MOESI');
  await fs.expectFigure('writes-b', 0);
});

test('axe finds no serious violation, before and after breaking it', async ({ page }) => {
  const fs = new FalseSharingPage(page);
  await fs.open();
  await expectNoSeriousAxe(page);
  await fs.steps(4);
  await fs.layout('padded');
  await fs.expectLine(1, 1, 'M');
  await expectNoSeriousAxe(page);
});

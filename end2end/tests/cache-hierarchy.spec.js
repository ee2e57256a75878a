import { test, expect } from './fixtures.js';
import { expectNoSeriousAxe } from './axe.js';
import { CacheHierarchyPage } from '../pages/cache-hierarchy-page.js';

test('a cold load goes to DRAM for 350 cycles, the same line then hits L1 in 5', async ({ page }) => {
  const ch = new CacheHierarchyPage(page);
  await ch.open();
  await ch.access('0x140');
  await ch.expectFigure('served', 'DRAM');
  await ch.expectFigure('cycles', 350);
  await ch.expectLevel('l1', 'compulsory miss');
  await ch.expectLevel('dram', 'supplied');
  await expect(page.getByTestId('cycles')).toHaveText('Load 0x140: served by DRAM in 5 + 11 + 84 + 250 = 350 cycles');
  // 0x140 is line 5: L1 reads tag 0x1, set 1, offset 0; L2 (8 sets) set 5.
  await expect(page.getByTestId('addr-l1')).toContainText('tag 0x1 · set 1 · offset 0');
  await expect(page.getByTestId('addr-l2')).toContainText('tag 0x0 · set 5 · offset 0');
  await ch.expectWay('l1', 1, 0, 'valid · filled');
  await ch.expectWay('l2', 5, 0, 'valid · filled');
  await expect(page.getByTestId('line-0x140')).toHaveAttribute('data-state', 'L1');

  await ch.access('0x17f');
  await ch.expectFigure('served', 'L1');
  await ch.expectFigure('cycles', 5);
  await ch.expectWay('l1', 1, 0, 'valid · hit');
  await ch.expectLevel('l2', 'not reached');

  await ch.chooseStore();
  await ch.clickLine('0x40');
  await ch.expectWay('l1', 1, 1, 'dirty · filled');
  await expect(page.getByTestId('narration-history')).toContainText("The store dirties L1's copy only");
  await ch.expectFigure('l1-misses', 2);
  await ch.expectFigure('l1-hits', 1);
  await expect(ch.latest).toContainText('Served by DRAM in 350 cycles (5 + 11 + 84 + 250).');
});

test('a line a cache holds is named on it, and a click on its name loads it', async ({ page }) => {
  const ch = new CacheHierarchyPage(page);
  await ch.open();
  await ch.clickLine('0x140');
  await ch.expectFigure('served', 'DRAM');
  await expect(page.getByTestId('line-0x140-word')).toHaveText('L1');
  // The word sits in the middle of the box, where a click lands: it lets
  // the click through to the box (else Playwright finds it in the way).
  await ch.clickLine('0x140');
  await ch.expectFigure('served', 'L1');
  await ch.expectWay('l1', 1, 0, 'valid · hit');
});

test('break it: three lines of one set miss every time in a nearly empty L1; more ways fix it', async ({ page }) => {
  // axe takes 10–20 s on a shared machine; two runs need more than the default 30 s.
  test.slow();
  const ch = new CacheHierarchyPage(page);
  await ch.open();
  await expectNoSeriousAxe(page);
  await ch.thrash();
  await ch.expectFigure('queued', 9);
  await expect(ch.latest).toContainText('Queued 9 loads: 3 lines 256 bytes apart, all in L1 set 0');
  await ch.steps(9);
  await ch.expectFigure('queued', 0);
  await ch.expectFigure('l1-hits', 0);
  await ch.expectFigure('l1-misses', 9);
  await ch.expectFigure('l1-conflict', 6);
  await ch.expectFigure('l2-hits', 6);
  await ch.expectLevel('l1', 'conflict miss');
  await ch.expectWay('l1', 1, 0, 'invalid');
  await expect(page.getByTestId('narration-history')).toContainText('L1 set 0 way 1 takes the line, evicting 0x100: it was the least recently used.');
  await expectNoSeriousAxe(page);
});

test('break it, then change the policy and the ways: FIFO misses as often, four ways stop the conflicts', async ({ page }) => {
  const ch = new CacheHierarchyPage(page);
  await ch.open();
  await ch.thrash();
  await ch.steps(9);
  await ch.expectFigure('l1-misses', 9);
  await ch.l1Policy('fifo');
  await expect(page.getByTestId('narration-history')).toContainText('L1 misses 9 → 9 (conflict misses 6 → 6)');
  await ch.doubleWays();
  await expect(ch.latest).toContainText('Total cycles for the same accesses');
  await expect(page.getByTestId('narration-history')).toContainText('L1 misses 9 → 3 (conflict misses 6 → 0)');
  await ch.expectFigure('l1-misses', 3);
  await ch.expectFigure('l1-conflict', 0);
  await expect(page.getByTestId('l1-sets')).toHaveAttribute('aria-label', /L1: 2 sets × 4 ways × 64 B lines, FIFO/);
});

test('impossible actions are refused with the reason', async ({ page }) => {
  const ch = new CacheHierarchyPage(page);
  await ch.open();
  await ch.access('0x4000');
  await expect(ch.latest).toHaveAttribute('data-tone', 'refused');
  await expect(ch.latest).toContainText('0x4000 is outside the 14-bit address space: use an address below 0x4000.');
  await ch.expectStep(0);

  await ch.addr.fill('0x1g');
  await expect(page.getByTestId('access-msg')).toContainText("Not an address: '0x1g' is not a number");
  await ch.thrash();
  await ch.step();
  await expect(page.getByTestId('thrash')).toHaveClass(/refused/);
  await ch.thrash();
  await expect(ch.latest).toHaveAttribute('data-tone', 'refused');
  await expect(ch.latest).toContainText('A pattern is already queued (8 accesses left): step through it first.');
  await ch.expectFigure('queued', 8);
});

test('a copied link reopens the same caches in a fresh page', async ({ page, browser }) => {
  const ch = new CacheHierarchyPage(page);
  await ch.open();
  await ch.thrash();
  await ch.steps(4);
  await ch.chooseStore();
  await ch.clickLine('0x80');
  const link = await ch.copyLink();
  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(link);
  const again = new CacheHierarchyPage(other);
  await again.expectStep(6);
  await again.expectFigure('queued', 5);
  await again.expectFigure('l1-misses', 5);
  await again.expectFigure('l1-conflict', 1);
  await again.expectWay('l1', 0, 1, 'valid');
  await again.expectWay('l1', 2, 0, 'dirty · filled');
  await expect(other.getByTestId('link-notice')).toHaveCount(0);
  await fresh.close();
});

test('its controls work from the keyboard', async ({ page }) => {
  const ch = new CacheHierarchyPage(page);
  await ch.open();
  await page.getByTestId('line-0x140').focus();
  await page.keyboard.press('Enter');
  await ch.expectFigure('served', 'DRAM');
  await ch.addr.focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('0x150');
  await page.keyboard.press('Enter');
  await ch.expectFigure('served', 'L1');
  await page.getByTestId('kind-load').focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('kind-store')).toBeChecked();
  await page.getByTestId('line-0x180').focus();
  await page.keyboard.press('Enter');
  await ch.expectWay('l1', 2, 0, 'dirty · filled');
  await page.getByTestId('thrash').focus();
  await page.keyboard.press('Enter');
  await ch.expectFigure('queued', 9);
});

test('a Sapphire Rapids core, and editing a level replays the accesses', async ({ page }) => {
  const ch = new CacheHierarchyPage(page);
  await ch.open();
  await page.getByTestId('preset-server').click();
  await expect(ch.latest).toContainText('L1 49152 B, L2 2097152 B, L3 1966080 B');
  await expect(ch.latest).toContainText('L3 is non-inclusive: a line from DRAM goes past it into L2, and L3 takes the lines L2 evicts.');
  await ch.access('0x7fff00001000');
  await ch.expectFigure('cycles', 350);
  await ch.access('0x7fff00001008');
  await ch.expectFigure('cycles', 5);
  await page.getByTestId('edit-dram').check();
  await page.getByTestId('latency').fill('400');
  await page.getByTestId('latency').press('Tab');
  await expect(page.getByTestId('narration-history')).toContainText('DRAM now adds 400 cycles to an access that reaches it.');
  await expect(ch.latest).toContainText('Total cycles for the same accesses: 355 → 505.');
});

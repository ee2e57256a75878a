import { test, expect } from './fixtures.js';
import { expectNoSeriousAxe } from './axe.js';
import { TlbPage } from '../pages/tlb-page.js';

test('a TLB miss walks four levels for 100 cycles; a hit on the same page adds none', async ({ page }) => {
  const tlb = new TlbPage(page);
  await tlb.open();
  await tlb.load('0x7f0000001234');
  await expect(tlb.field('pml4')).toHaveAttribute('data-state', 'index 254');
  await expect(tlb.field('pml4')).toContainText('011111110');
  await expect(tlb.field('pdpt')).toHaveAttribute('data-state', 'index 0');
  await expect(tlb.field('pt')).toHaveAttribute('data-state', 'index 1');
  await expect(tlb.field('offset')).toHaveAttribute('data-state', '0x234');
  for (const t of ['pml4', 'pdpt', 'pd', 'pt']) await tlb.expectTable(t, 'read');
  await expect(tlb.table('pml4')).toContainText('[254] @ 0x17f0 = 0x1fe007');
  await expect(page.getByTestId('pa')).toContainText('physical address 0x17f0000001234 · 100 cycles of walk');
  await tlb.expectFigure('result', 'miss');
  await tlb.expectFigure('cycles', 100);
  await tlb.expectFigure('reads', 4);
  await expect(tlb.entry(1, 0)).toHaveAttribute('data-state', 'valid · filled');

  await tlb.load('0x7f0000001ff8');
  await tlb.expectFigure('result', 'hit');
  await tlb.expectFigure('cycles', 0);
  await expect(tlb.latest).toContainText('The lookup ran alongside the L1 cache\'s, so it adds no cycles.');
  await tlb.expectTable('pml4', 'skipped');
  await expect(tlb.entry(1, 0)).toHaveAttribute('data-state', 'valid · hit');

  await tlb.pwc(true);
  await tlb.load('0x7f0000005234');
  await tlb.expectTable('pd', 'from PWC');
  await tlb.expectTable('pt', 'read');
  await tlb.expectFigure('cycles', 25);
  await tlb.expectFigure('saved', 3);
  await expect(tlb.table('pd')).toContainText('PWC: 254/0/0');
});

test('break it: a loop over one page more than each set holds never hits; 2 MiB pages rescue it', async ({ page }) => {
  // axe takes 10–20 s on a shared machine; two runs need more than the default 30 s.
  test.slow();
  const tlb = new TlbPage(page);
  await tlb.open();
  await expectNoSeriousAxe(page);
  await tlb.loopOver();
  await expect(tlb.latest).toContainText('Set 0 gets 5 pages and set 1 gets 5, but a set holds 4 ways');
  await expect(tlb.latest).toContainText('rounds 2 and 3 should hit 0 of their 20 loads');
  await tlb.expectFigure('queued', 30);
  await tlb.steps(30);
  await tlb.expectFigure('queued', 0);
  await tlb.expectFigure('hits', 0);
  await tlb.expectFigure('misses', 30);
  await tlb.expectFigure('hit-rate', '0.0 %');
  await tlb.expectFigure('reads', 120);
  await expect(tlb.latest).toContainText('evicting the entry for page 0x7f0000001: it was the least recently used.');
  await expectNoSeriousAxe(page);

  await tlb.huge(true);
  await expect(tlb.latest).toContainText('hit rate 0.0 % → 96.7 %');
  await tlb.expectFigure('hits', 29);
  await tlb.expectFigure('reads', 3);
  await tlb.expectTable('pt', 'not used');
  await expect(tlb.field('pt')).toHaveCount(0);
});

test('a loop that fits hits from the second round on', async ({ page }) => {
  const tlb = new TlbPage(page);
  await tlb.open();
  await tlb.loopFit();
  await tlb.expectFigure('queued', 24);
  await tlb.steps(24);
  await tlb.expectFigure('hits', 16);
  await tlb.expectFigure('misses', 8);
  await tlb.expectFigure('hit-rate', '66.7 %');
});

test('impossible loads are refused with the reason', async ({ page }) => {
  const tlb = new TlbPage(page);
  await tlb.open();
  await tlb.load('0x800000000000');
  await expect(tlb.latest).toHaveAttribute('data-tone', 'refused');
  await expect(tlb.latest).toContainText('0x800000000000 is not canonical: bits 63 to 48 must all copy bit 47');
  await tlb.expectStep(0);
  await tlb.loopOver();
  await tlb.loopFit();
  await expect(tlb.latest).toHaveAttribute('data-tone', 'refused');
  await expect(tlb.latest).toContainText('A loop is already queued (30 loads left): step through it first.');
  await tlb.va.fill('0xzz');
  await expect(page.getByTestId('translate-msg')).toContainText("Not an address: '0xzz' is not a number");
});

test('a copied link reopens the same translations in a fresh page', async ({ page, browser }) => {
  const tlb = new TlbPage(page);
  await tlb.open();
  await tlb.pwc(true);
  await tlb.load('0x7f0000001234');
  await tlb.load('0x7f0000005234');
  const link = await tlb.copyLink();
  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(link);
  const again = new TlbPage(other);
  await again.expectStep(3);
  await again.expectTable('pd', 'from PWC');
  await again.expectFigure('saved', 3);
  await again.expectFigure('misses', 2);
  await expect(other.getByTestId('pwc')).toBeChecked();
  await expect(other.getByTestId('link-notice')).toHaveCount(0);
  await fresh.close();
});

test('its controls work from the keyboard', async ({ page }) => {
  const tlb = new TlbPage(page);
  await tlb.open();
  await page.getByTestId('go-0x7f0000001234').focus();
  await page.keyboard.press('Enter');
  await tlb.expectFigure('result', 'miss');
  await tlb.va.focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('0x7f0000001000');
  await page.keyboard.press('Enter');
  await tlb.expectFigure('result', 'hit');
  await page.getByTestId('huge').focus();
  await page.keyboard.press(' ');
  await expect(page.getByTestId('huge')).toBeChecked();
  await expect(tlb.latest).toContainText('hit rate 50.0 % → 50.0 %');
  await page.getByTestId('entries').focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('narration-history')).toContainText('The TLB for 2 MiB pages now has 8 entries in 2 sets of 4 ways.');
});

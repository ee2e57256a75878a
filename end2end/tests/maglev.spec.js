import { test, expect } from './fixtures.js';
import { expectNoSeriousAxe } from './axe.js';
import { MaglevPage } from '../pages/maglev-page.js';

// The paper's Table 1: M = 7, B0 (offset 3, skip 4), B1 (0, 2), B2 (3, 1).
// Preference lists B0 3 0 4 1 5 2 6, B1 0 2 4 6 1 3 5, B2 3 4 5 6 0 1 2;
// the backends take turns claiming their first free entry.
test('the table fills turn by turn into the paper\'s example', async ({ page }) => {
  const m = new MaglevPage(page);
  await m.open();
  await m.step();
  await m.step();
  await m.step();
  await expect(m.latest).toContainText("Round 1, B2's turn. Entry 3 (B0's) is taken");
  await expect(m.latest).toContainText('B2 claims it');
  await m.fill();
  await expect(m.latest).toContainText('The table is full after 7 turns: B0 3, B1 2 and B2 2.');
  await expect(page.getByTestId('row-now')).toContainText('0 B1, 1 B0, 2 B1, 3 B0, 4 B2, 5 B2, 6 B0');
});

// Without B1 the table becomes B0 B0 B2 B0 B2 B2 B0: B1's two entries and
// one more change owner; modulo hashing (j mod N) moves four of seven.
test('a backend leaves: Maglev moves three entries, modulo four', async ({ page }) => {
  const m = new MaglevPage(page);
  await m.open();
  await m.leave('b1');
  await m.fill();
  await expect(m.latest).toContainText("3 of 7 entries changed owner: B1's 2, and 1 more.");
  await expect(page.getByTestId('moved-line')).toContainText('modulo 4 (of 7)');
});

test('break it: a table size that is not prime is refused with its reason', async ({ page }) => {
  const m = new MaglevPage(page);
  await m.open();
  await m.setNumber('size', 8);
  await expect(page.getByText('A table size must be prime, and 8 is not').first()).toBeVisible();
  await m.step();
  await expect(m.latest).toContainText('Round 1');
});

test('the comparison on a large table: Maglev balances within one entry, the ring does not', async ({ page }) => {
  const m = new MaglevPage(page);
  await m.open();
  await expect(page.getByTestId('cmp-maglev')).toContainText('102–103');
  await expect(page.getByTestId('cmp-ring')).toContainText('83–123');
  await m.setNumber('compare-backends', 100);
  await expect(page.getByTestId('cmp-maglev')).toContainText('10–11');
});

test('a share link restores the leaver and the turns', async ({ page }) => {
  const m = new MaglevPage(page);
  await m.open();
  await m.leave('b1');
  await m.step();
  await m.step();
  const link = await m.copyLink();
  await page.goto(link);
  await expect(page.getByTestId('leave-b1')).toBeChecked();
  await expect(m.latest).not.toBeEmpty();
  await expect(page.getByTestId('link-notice')).toHaveCount(0);
});

test('axe finds no serious violation', async ({ page }) => {
  const m = new MaglevPage(page);
  await m.open();
  await expectNoSeriousAxe(page);
  await m.leave('b1');
  await m.fill();
  await expectNoSeriousAxe(page);
});

import { test, expect } from './fixtures.js';
import { expectNoSeriousAxe } from './axe.js';
import { MpmcPage } from '../pages/mpmc-page.js';

test('P2 steals the head: P1\'s CAS fails and it retries with the next slot', async ({ page }) => {
  const q = new MpmcPage(page);
  await q.open();
  await q.run('p1', 'p1');
  await expect(q.latest).toContainText("P1 reads slot 0's sequence 0: it equals pos, so the slot is free for this lap.");
  await q.steal();
  await expect(q.latest).toContainText("P2 took position 0, the one P1 read: P1's next CAS must fail.");
  await q.expectSlot(0, 'reserved');
  await q.expectFigure('enqueue-pos', 1);
  await q.run('p1');
  await expect(q.latest).toContainText("P1's CAS fails: enqueue_pos is 1, not 0; compare_exchange leaves 1 in pos and P1 retries with slot 1.");
  await q.expectFigure('retries', 1);
  await q.run('p1', 'p1', 'p1', 'p1');
  await expect(q.latest).toContainText('P1 stores sequence 2 (release): slot 1 now holds a published 11.');
  await q.expectSlot(1, 'full');
  await q.expectSlot(0, 'reserved');
});

test('taking turns to the end delivers every item once; the CAS count against SPSC', async ({ page }) => {
  const q = new MpmcPage(page);
  await q.open();
  await q.steps(68);
  await q.expectFigure('received', '11, 21, 12, 22, 13, 23');
  await q.expectFigure('cas', 14);
  await q.expectFigure('retries', 2);
  await expect(page.getByTestId('mpmc-contrast')).toContainText('MPMC against SPSC, for the same 12 operations');
  await expect(q.cell('vs-cas-mpmc')).toHaveText('14');
  await expect(q.cell('vs-cas-spsc')).toHaveText('0');
  await expect(q.cell('vs-failed-mpmc')).toHaveText('2');
  await expect(q.cell('vs-stores-spsc')).toHaveText('12');
  await q.expectSlot(0, 'free');
});

test('break it: without sequence numbers a consumer reads a reserved, unwritten slot', async ({ page }) => {
  const q = new MpmcPage(page);
  await q.open();
  await q.dropSequenceNumbers();
  await q.expectFigure('mode', 'no sequence numbers');
  await q.run('p1', 'p1', 'p1');
  await q.expectSlot(0, 'reserved');
  await q.run('c1', 'c1', 'c1');
  await q.expectSlot(0, 'unwritten');
  await q.run('c1');
  await expect(q.latest).toHaveAttribute('data-tone', 'fault');
  await expect(q.latest).toContainText('C1 reads slot 0 for position 0 before any producer wrote it there: it gets nothing, not a queued value.');
  await q.expectFigure('torn', 1);
  await expect(page.getByTestId('mpmc-torn')).toContainText('C1 claimed position 0 and read nothing before any producer wrote it');
});

test('stealing with nothing to steal is refused with the reason', async ({ page }) => {
  const q = new MpmcPage(page);
  await q.open();
  await expect(page.getByTestId('steal')).toHaveClass(/refused/);
  await q.steal();
  await expect(q.latest).toHaveAttribute('data-tone', 'refused');
  await expect(q.latest).toContainText('P1 holds no position to steal: step P1 until it has loaded enqueue_pos.');
  await q.expectStep(0);
});

test('a share link restores the stolen head', async ({ page, browser }) => {
  const q = new MpmcPage(page);
  await q.open();
  await q.run('p1', 'p1');
  await q.steal();
  await q.run('p1');
  const link = await q.copyLink();
  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(link);
  const again = new MpmcPage(other);
  await again.expectFigure('retries', 1);
  await again.expectFigure('enqueue-pos', 1);
  await again.expectSlot(0, 'reserved');
  await again.expectStep(4);
  await expect(other.getByTestId('link-notice')).toHaveCount(0);
  await fresh.close();
});

test('its controls work from the keyboard', async ({ page }) => {
  const q = new MpmcPage(page);
  await q.open();
  await page.getByTestId('capacity-4').focus();
  await page.keyboard.press('ArrowRight');
  await expect(q.slot(7)).toHaveAttribute('data-state', 'free');
  await page.getByTestId('step-p1').focus();
  await page.keyboard.press('Enter');
  await q.expectFigure('p1', 'next: read seq · pos 0 · 0 done');
  await page.getByTestId('agent-1').focus();
  await page.keyboard.press('Enter');
  await q.expectFigure('p2', 'next: read seq · pos 0 · 0 done');
  await page.getByTestId('no-seq').focus();
  await page.keyboard.press(' ');
  await q.expectFigure('mode', 'no sequence numbers');
});

test('axe finds no serious violation, before and after breaking it', async ({ page }) => {
  const q = new MpmcPage(page);
  await q.open();
  await expectNoSeriousAxe(page);
  await q.dropSequenceNumbers();
  await q.run('p1', 'p1', 'p1', 'c1', 'c1', 'c1', 'c1');
  await q.expectFigure('torn', 1);
  await expectNoSeriousAxe(page);
});

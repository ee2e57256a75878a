import { test, expect } from './fixtures.js';
import { expectNoSeriousAxe } from './axe.js';
import { AbaPage } from '../pages/aba-page.js';

test('raw CAS: the classic interleaving installs a freed node as head', async ({ page }) => {
  const aba = new AbaPage(page);
  await aba.open();
  await aba.expectFigure('stack', 'A → B → C');
  await aba.steps(2);
  await aba.expectFigure('t1', 'pop: saw A, next B, then CAS');
  await aba.steps(8);
  // T2 popped A and B and pushed A back: head is A again, A.next = C.
  await aba.expectFigure('stack', 'A → C');
  await aba.expectNode('b', 'free');
  await aba.step();
  await expect(page.getByTestId('narration-history')).toContainText("T1's CAS(head, A, B) succeeds: head = B. A is popped and freed onto the free list.");
  await expect(aba.latest).toHaveAttribute('data-tone', 'fault');
  await expect(aba.latest).toContainText('Corrupted: B is reachable from head, but it was freed.');
  await aba.expectFigure('head', 'B');
  await aba.expectFigure('stack', 'B → C');
  await aba.expectFigure('free', 'D, B, A');
  await aba.expectFigure('damage', 'corrupted');
  await expect(aba.node('b')).toHaveClass(/fault/);
  await expect(aba.damage()).toContainText('B is reachable from head, but it was freed.');
});

test('a tagged head makes the stale CAS fail, and the stack stays whole', async ({ page }) => {
  const aba = new AbaPage(page);
  await aba.open();
  await aba.tagged();
  await aba.expectFigure('fix', 'a tagged head');
  await aba.steps(11);
  await expect(aba.latest).toContainText("T1's CAS(head, A, B) fails: head is A again, but its tag is 3, not 0");
  await aba.expectFigure('retries', 1);
  await aba.steps(3);
  await aba.expectFigure('head', 'C (tag 4)');
  await aba.expectFigure('damage', 'none');
  await expect(aba.damage()).toContainText('None: every node is where the algorithm believes it is.');
});

test('hazard pointers keep A from being reused while T1 holds it', async ({ page }) => {
  const aba = new AbaPage(page);
  await aba.open();
  await aba.hazard();
  await aba.expectFigure('fix', 'hazard pointers');
  await aba.steps(8);
  await aba.expectFigure('retired', 'A');
  await aba.expectNode('a', 'retired');
  await expect(page.getByTestId('push-t2-a')).toHaveCount(0);
  await aba.steps(4);
  await aba.expectFigure('damage', 'none');
  await expect(page.getByTestId('narration-history')).toContainText("T1's CAS(head, A, B) fails: head is now C.");
});

test('impossible steps are refused with the reason', async ({ page }) => {
  const aba = new AbaPage(page);
  await aba.open();
  await aba.stepThread(1);
  await expect(aba.latest).toHaveAttribute('data-tone', 'refused');
  await expect(aba.latest).toContainText('T1 is idle: start a pop or a push on it.');
  await aba.pop(1);
  await aba.push(1, 'd');
  await expect(aba.latest).toContainText('T1 is in the middle of an operation: Step it to the end first.');
  await aba.expectStep(1);
});

test('a share link restores the corrupted stack', async ({ page, browser }) => {
  const aba = new AbaPage(page);
  await aba.open();
  await aba.steps(11);
  await aba.expectFigure('damage', 'corrupted');
  const link = await aba.copyLink();
  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(link);
  const again = new AbaPage(other);
  await again.expectFigure('head', 'B');
  await again.expectFigure('damage', 'corrupted');
  await again.expectNode('b', 'free');
  await again.expectStep(11);
  await expect(other.getByTestId('link-notice')).toHaveCount(0);
  await fresh.close();
});

test('its controls work from the keyboard', async ({ page }) => {
  const aba = new AbaPage(page);
  await aba.open();
  await page.getByTestId('tagged').focus();
  await page.keyboard.press(' ');
  await aba.expectFigure('fix', 'a tagged head');
  await page.getByTestId('pop-t1').focus();
  await page.keyboard.press('Enter');
  await aba.expectFigure('t1', 'pop: saw A, next ?, then read next');
  await page.getByTestId('thread-0').focus();
  await page.keyboard.press('Enter');
  await aba.expectFigure('t1', 'pop: saw A, next B, then CAS');
});

test('axe finds no serious violation, before and after breaking it', async ({ page }) => {
  const aba = new AbaPage(page);
  await aba.open();
  await expectNoSeriousAxe(page);
  await aba.steps(11);
  await aba.expectFigure('damage', 'corrupted');
  await expectNoSeriousAxe(page);
});

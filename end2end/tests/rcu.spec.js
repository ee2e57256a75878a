import { test, expect } from './fixtures.js';
import { expectNoSeriousAxe } from './axe.js';
import { RcuPage } from '../pages/rcu-page.js';

test('synchronize_rcu() waits for the readers that were inside, not for later ones', async ({ page }) => {
  const rcu = new RcuPage(page);
  await rcu.open();
  await rcu.steps(3);
  await expect(rcu.latest).toContainText('CPU 1: p = rcu_dereference(first->next) gives A, the original version.');
  await rcu.steps(4);
  await expect(rcu.latest).toContainText('The grace period waits for CPU 1 and CPU 3: inside a read-side critical section when it began.');
  await rcu.expectFigure('linked', 'B');
  await rcu.expectFigure('grace', 'A: CPU 1, CPU 3');
  await rcu.expectVersion('a', 'unlinked');
  // CPU 3 was inside before the update but reaches the element after it: B.
  await rcu.step();
  await rcu.expectFigure('cpu-3', 'holds B (current)');
  await rcu.steps(5);
  await expect(rcu.latest).toContainText('CPU 1: p = rcu_dereference(A->next) gives last: the old node still points on into the list.');
  await rcu.step();
  await rcu.expectFigure('grace', 'A: CPU 3');
  await rcu.expectVersion('a', 'unlinked');
  await rcu.step();
  await expect(rcu.latest).toContainText('Grace period over: synchronize_rcu() returns and the updater frees A. No reader can still hold it.');
  await rcu.expectVersion('a', 'freed');
  await rcu.expectFigure('cpu-2', 'holds B (current)');
  await rcu.expectFigure('updater', 'idle');
  await expect(page.getByTestId('grace-0')).toHaveAttribute('data-state', 'over');
  await expect(page.getByTestId('cs-0')).toHaveAttribute('data-state', 'closed');
  await expect(page.getByTestId('cs-2')).toHaveAttribute('data-state', 'open');
  await rcu.expectFigure('use-after-free', 0);
});

test('call_rcu() lets the updater go on; the callback frees after the grace period', async ({ page }) => {
  const rcu = new RcuPage(page);
  await rcu.open();
  await rcu.cpu(3, 'lock', 'deref', 'deref');
  await rcu.publish();
  await rcu.callRcu();
  await rcu.expectFigure('updater', 'idle');
  await rcu.expectFigure('grace', 'A: CPU 3');
  await rcu.cpu(3, 'unlock');
  await expect(rcu.latest).toContainText('Grace period over: the call_rcu() callback frees A.');
  await rcu.expectVersion('a', 'freed');
});

test('break it: kfree() at once and a pre-existing reader uses freed memory', async ({ page }) => {
  const rcu = new RcuPage(page);
  await rcu.open();
  await rcu.cpu(1, 'lock', 'deref', 'deref');
  await rcu.publish();
  await rcu.freeNow();
  await expect(rcu.latest).toHaveAttribute('data-tone', 'fault');
  await expect(rcu.latest).toContainText('CPU 1 still holds a pointer to A: any read through it is now a use-after-free.');
  await rcu.cpu(1, 'use');
  await expect(rcu.latest).toContainText('CPU 1 reads p->data, but A has been freed: a use-after-free.');
  await rcu.expectFigure('use-after-free', 1);
  await expect(rcu.version('a')).toHaveClass(/fault/);
  await expect(page.getByTestId('cs-0')).toHaveClass(/fault/);
});

test('impossible calls are refused with the reason', async ({ page }) => {
  const rcu = new RcuPage(page);
  await rcu.open();
  await rcu.cpu(1, 'deref');
  await expect(rcu.latest).toHaveAttribute('data-tone', 'refused');
  await expect(rcu.latest).toContainText('CPU 1 is outside a critical section, where a pointer from rcu_dereference() is not protected: rcu_read_lock() first.');
  await rcu.synchronize();
  await expect(rcu.latest).toContainText('There is no old node to reclaim: publish an update first.');
  await rcu.expectStep(0);
});

test('a share link restores readers and the grace period', async ({ page, browser }) => {
  const rcu = new RcuPage(page);
  await rcu.open();
  await rcu.steps(8);
  const link = await rcu.copyLink();
  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(link);
  const again = new RcuPage(other);
  await again.expectFigure('grace', 'A: CPU 1, CPU 3');
  await again.expectFigure('cpu-1', 'holds A (old)');
  await again.expectFigure('cpu-3', 'holds B (current)');
  await again.expectStep(8);
  await expect(other.getByTestId('link-notice')).toHaveCount(0);
  await fresh.close();
});

test('its controls work from the keyboard', async ({ page }) => {
  const rcu = new RcuPage(page);
  await rcu.open();
  await page.getByTestId('lock-2').focus();
  await page.keyboard.press('Enter');
  await rcu.expectFigure('cpu-2', 'in critical section');
  // A reader CPU in the picture is a button: inside, it unlocks.
  await rcu.reader(2).focus();
  await page.keyboard.press('Enter');
  await rcu.expectFigure('cpu-2', 'outside');
  await page.getByTestId('publish').focus();
  await page.keyboard.press('Enter');
  await rcu.expectFigure('linked', 'B');
  await page.getByTestId('readers').focus();
  await page.keyboard.press('ArrowRight');
  await expect(rcu.reader(4)).toHaveAttribute('data-state', 'outside');
});

test('axe finds no serious violation, before and after breaking it', async ({ page }) => {
  const rcu = new RcuPage(page);
  await rcu.open();
  await expectNoSeriousAxe(page);
  await rcu.cpu(1, 'lock', 'deref', 'deref');
  await rcu.publish();
  await rcu.freeNow();
  await rcu.cpu(1, 'use');
  await rcu.expectFigure('use-after-free', 1);
  await expectNoSeriousAxe(page);
});

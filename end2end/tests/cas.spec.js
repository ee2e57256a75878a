import { test, expect } from './fixtures.js';
import { expectNoSeriousAxe } from './axe.js';
import { CasPage } from '../pages/cas-page.js';

test('a CAS loop retries when the counter moved, and no update is lost', async ({ page }) => {
  const cas = new CasPage(page);
  await cas.open();
  await cas.expectFigure('method', 'CAS loop');
  // T1 loads 0 and computes 1; T2 completes an increment; T1's CAS then fails.
  await cas.run(1, 1, 2, 2, 2, 1);
  await expect(cas.latest).toContainText("T1's CAS fails: the counter holds 1, not 0");
  await cas.expectFigure('retries', 1);
  await cas.expectThread(1, 'retry');
  await expect(cas.thread(1)).toContainText('e = 1');
  await expect(cas.move(6)).toHaveAttribute('data-state', 'CAS ✗ saw');
  // Step schedules round robin to the end: two more failed CAS, nothing lost.
  for (let i = 0; i < 12; i += 1) await cas.step();
  await cas.expectFigure('counter', 4);
  await cas.expectFigure('expected', 4);
  await cas.expectFigure('retries', 3);
  await cas.expectFigure('lost', 0);
  await cas.expectThread(1, 'done');
  await expect(page.getByTestId('why')).toContainText('Final count 4; expected 0 + 4 increments + 0 outside writes = 4.');
});

test('break it: two plain loads before either store lose one update, named', async ({ page }) => {
  const cas = new CasPage(page);
  await cas.open();
  await cas.plain();
  await cas.expectFigure('method', 'plain load/add/store');
  await expect(page.getByTestId('code-0')).toHaveText('r = counter;');
  await cas.run(1, 2, 1, 2, 1, 2);
  await cas.expectFigure('counter', 1);
  await cas.expectFigure('expected', 2);
  await cas.expectFigure('lost', 1);
  await expect(cas.latest).toHaveAttribute('data-tone', 'fault');
  await expect(cas.latest).toContainText("T2's store was computed from 0, so it erases T1's increment 1: lost.");
  await expect(cas.lost()).toContainText("T1's increment 1: erased by T2's store of 1 at #6");
  await expect(cas.move(6)).toHaveAttribute('data-state', 'erased');
  await expect(cas.move(5)).toHaveAttribute('data-state', 'store');
});

test('an outside write forces a retry under CAS and is lost under plain', async ({ page }) => {
  const cas = new CasPage(page);
  await cas.open();
  await cas.run(1, 1);
  await cas.inject();
  await cas.expectFigure('counter', 1);
  await cas.run(1);
  await cas.expectFigure('retries', 1);
  await expect(page.getByTestId('lane-2')).toHaveText('outside');

  await cas.plain();
  await cas.run(1, 1);
  await cas.inject();
  await cas.run(1);
  await cas.expectFigure('counter', 1);
  await cas.expectFigure('expected', 2);
  await expect(cas.lost()).toContainText('outside write 1: erased by T1\'s store of 1 at #4');
});

test('fetch_add is one atomic step per increment', async ({ page }) => {
  const cas = new CasPage(page);
  await cas.open();
  await cas.method('fetch-add');
  await cas.run(1, 2, 2, 1);
  await cas.expectFigure('counter', 4);
  await cas.expectFigure('retries', 0);
  await expect(page.getByTestId('narration-history')).toContainText("T1's fetch_add(1) returns 3 and leaves 4, in one atomic step.");
  await cas.expectThread(2, 'done');
});

test('running a finished thread is refused with the reason', async ({ page }) => {
  const cas = new CasPage(page);
  await cas.open();
  await cas.run(1, 1, 1, 1, 1, 1);
  await cas.expectThread(1, 'done');
  await expect(page.getByTestId('run-t1')).toHaveClass(/refused/);
  await cas.run(1);
  await expect(cas.latest).toHaveAttribute('data-tone', 'refused');
  await expect(cas.latest).toContainText('T1 has made all 2 of its increments: step another thread.');
  await cas.expectStep(6);
});

test('a share link restores the lost update', async ({ page, browser }) => {
  const cas = new CasPage(page);
  await cas.open();
  await cas.plain();
  await cas.run(1, 2, 1, 2, 1, 2);
  const link = await cas.copyLink();
  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(link);
  const again = new CasPage(other);
  await again.expectFigure('method', 'plain load/add/store');
  await again.expectFigure('lost', 1);
  await expect(again.move(6)).toHaveAttribute('data-state', 'erased');
  await again.expectStep(7);
  await expect(other.getByTestId('link-notice')).toHaveCount(0);
  await fresh.close();
});

test('its controls work from the keyboard', async ({ page }) => {
  const cas = new CasPage(page);
  await cas.open();
  await page.getByTestId('run-t1').focus();
  await page.keyboard.press('Enter');
  await cas.expectFigure('thread-0', 'next: compute from expected 0 · 0/2');
  // The thread in the picture is a button too.
  await cas.thread(2).focus();
  await page.keyboard.press('Enter');
  await cas.expectFigure('thread-1', 'next: compute from expected 0 · 0/2');
  await page.getByTestId('method-cas').focus();
  await page.keyboard.press('ArrowRight');
  await cas.expectFigure('method', 'fetch_add');
  await page.getByTestId('threads').focus();
  await page.keyboard.press('ArrowRight');
  await cas.expectFigure('thread-2', 'next: fetch_add · 0/2');
  await page.getByTestId('plain').focus();
  await page.keyboard.press(' ');
  await cas.expectFigure('method', 'plain load/add/store');
});

test('axe finds no serious violation, before and after breaking it', async ({ page }) => {
  const cas = new CasPage(page);
  await cas.open();
  await expectNoSeriousAxe(page);
  await cas.plain();
  await cas.run(1, 2, 1, 2, 1, 2);
  await cas.expectFigure('lost', 1);
  await expectNoSeriousAxe(page);
});

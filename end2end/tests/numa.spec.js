import { test, expect } from './fixtures.js';
import { expectNoSeriousAxe } from './axe.js';
import { NumaPage } from '../pages/numa-page.js';

test('first touch keeps a thread local; interleave sends every other page across the link', async ({ page }) => {
  const n = new NumaPage(page);
  await n.open();
  await expect(n.cost(0, 0)).toHaveText('90 ns · 104 GB/s · 10');
  await expect(n.cost(0, 1)).toHaveText('144 ns · 34 GB/s · 16');
  await n.expectState('page-0', 'untouched');

  await n.step();
  await expect(n.latest).toContainText('page 0 is touched for the first time and the first touch policy places it on node 0');
  await expect(n.latest).toContainText('local, 90 ns over a 104 GB/s path');
  await n.expectState('page-0', 'local');
  await n.expectState('access', 'local');

  await n.finish();
  await n.expectFigure('local', 256);
  await n.expectFigure('remote', 0);
  await n.expectFigure('avg-latency', '90.0 ns');
  await n.expectFigure('bandwidth', '0.7 GB/s');
  await n.expectState('socket-0', '16 pages');
  await n.expectState('link-0', '0.0 %');

  await n.restart();
  await n.policy('interleave');
  await n.finish();
  await n.expectFigure('local', 128);
  await n.expectFigure('remote', 128);
  await n.expectFigure('avg-latency', '117.0 ns');
  await n.expectState('page-1', 'remote');
  await n.expectState('socket-1', '8 pages');
});

test('break it: the thread moves after first touch and every access goes remote', async ({ page }) => {
  const n = new NumaPage(page);
  await n.open();
  await n.breakIt();
  await n.run16();
  await n.expectFigure('thread', 'socket 1');
  await expect(n.latest).toContainText('Every page is placed; now the scheduler moves the thread from socket 0 to socket 1.');
  await n.expectState('thread', 'socket 1');
  await n.expectState('page-5', 'remote');
  await n.finish();
  await n.expectFigure('local', 16);
  await n.expectFigure('remote', 240);
  await n.expectFigure('avg-latency', '140.6 ns');
  await n.expectFigure('link-load', '1.3 %');
  await n.expectState('lat-31', 144);
  await n.expectState('access', 'remote');

  // 64 misses offered, but the core's 10 fill buffers keep 10 in flight:
  // the walk uses an eighth of the link.
  await n.setNumber('in-flight', 64);
  await n.expectFigure('accesses', '0/256');
  await n.expectFigure('in-flight', '10 of 64 (fill buffers)');
  await n.finish();
  await n.expectFigure('bandwidth', '4.6 GB/s');
  await n.expectFigure('link-load', '12.5 %');
  await expect(page.getByTestId('core-local')).toHaveText('10 × 64 B / 90 ns = 7.1 GB/s');
  await expect(page.getByTestId('core-far')).toHaveText('at most 4.4 GB/s');
});

test('impossible moves are refused with the reason', async ({ page }) => {
  const n = new NumaPage(page);
  await n.open();
  await expect(page.getByTestId('move-0')).toHaveClass(/refused/);
  await n.moveTo(0);
  await expect(n.latest).toHaveAttribute('data-tone', 'refused');
  await expect(n.latest).toContainText('The thread already runs on socket 0.');
  await n.restart();
  await expect(n.latest).toContainText('Nothing to restart: no access has run yet.');
  await n.expectStep(0);
  await n.setNumber('hop-ns', 3000);
  await expect(page.getByTestId('hop-ns-msg')).toContainText('1 to 2000');
  await expect(n.cost(0, 1)).toHaveText('144 ns · 34 GB/s · 16');
});

test('a share link keeps the policy, the move and the counts', async ({ page, browser }) => {
  const n = new NumaPage(page);
  await n.open();
  await n.policy('interleave');
  await n.run16();
  await n.moveTo(1);
  await n.run16();
  await n.expectFigure('accesses', '32/256');
  const link = await n.copyLink();

  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(link);
  const again = new NumaPage(other);
  await again.expectFigure('accesses', '32/256');
  await again.expectFigure('thread', 'socket 1');
  await again.expectFigure('policy', 'interleave');
  await again.expectFigure('local', 16);
  await again.expectFigure('remote', 16);
  await again.expectState('page-1', 'local');
  await again.expectStep(4);
  await expect(other.getByTestId('link-notice')).toHaveCount(0);
  await fresh.close();
});

test('four sockets form a ring with a two-hop far side', async ({ page }) => {
  const n = new NumaPage(page);
  await n.open();
  await n.sockets(4);
  await n.policy('bind-2');
  await n.step();
  await expect(n.cost(0, 2)).toHaveText('198 ns · 34 GB/s · 22');
  await n.expectState('lat-0', 198);
  await n.expectState('page-0', 'remote');
  await expect(n.latest).toContainText('remote, 2 hops, 198 ns');
});

test('its controls work from the keyboard', async ({ page }) => {
  const n = new NumaPage(page);
  await n.open();
  await page.getByTestId('policy-first-touch').focus();
  await page.keyboard.press('ArrowRight');
  await n.expectFigure('policy', 'interleave');
  await page.getByTestId('move-1').focus();
  await page.keyboard.press('Enter');
  await n.expectFigure('thread', 'socket 1');
  await page.getByTestId('run-16').focus();
  await page.keyboard.press('Enter');
  await n.expectFigure('accesses', '16/256');
  await n.expectFigure('local', 8);
  await page.getByTestId('break').focus();
  await page.keyboard.press(' ');
  await expect(page.getByTestId('break')).toBeChecked();
});

test('axe finds no serious violation, before and after breaking it', async ({ page }) => {
  const n = new NumaPage(page);
  await n.open();
  await n.step();
  await expectNoSeriousAxe(page);
  await n.breakIt();
  await n.run16();
  await n.run16();
  await n.expectFigure('thread', 'socket 1');
  await expectNoSeriousAxe(page);
});

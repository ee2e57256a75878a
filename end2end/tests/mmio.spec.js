import { test, expect } from './fixtures.js';
import { expectNoSeriousAxe } from './axe.js';
import { MmioPage } from '../pages/mmio-page.js';

test('five posted writes free the core 11× sooner than five reads', async ({ page }) => {
  const mmio = new MmioPage(page);
  await mmio.open();
  await mmio.expectFigure('writes-free', '300 ns');
  await mmio.expectFigure('writes-land', '600 ns');
  await mmio.expectFigure('reads-free', '3300 ns');
  await mmio.expectFigure('speedup', '11.0× sooner');

  await mmio.step();
  await mmio.expectFigure('clock', '60 ns');
  await expect(mmio.latest).toContainText('R0 leaves the core');
  await expect(page.getByTestId('narration-history')).toContainText('W0 posted');
  await expect(page.getByTestId('core-states')).toContainText('reads core: stalled on R0');

  await mmio.runToEnd();
  await mmio.expectFigure('clock', '3300 ns');
  await mmio.expectFigure('writes-landed', '5/5');
  await mmio.expectFigure('reads-retired', '5/5');
  await mmio.step();
  await expect(mmio.latest).toContainText('Both runs are over');
});

test('the settings change the schedule and restart the clock', async ({ page }) => {
  const mmio = new MmioPage(page);
  await mmio.open();
  await mmio.step();
  await mmio.setRoundTrip(1000);
  await mmio.expectFigure('clock', '0 ns');
  await mmio.expectFigure('reads-free', '5300 ns');
  await mmio.expectFigure('speedup', '17.7× sooner');
  await mmio.setCount(16);
  await mmio.expectFigure('writes-free', '960 ns');
  await mmio.expectFigure('reads-retired', '0/16');
  await mmio.setIssue(100);
  await mmio.expectFigure('writes-free', '1600 ns');
  await mmio.expectFigure('writes-land', '2100 ns');
  await expect(mmio.latest).toContainText('Issue cost set to 100 ns');
});

test('break it: a register read in the per-packet loop costs a round trip per packet', async ({ page }) => {
  const mmio = new MmioPage(page);
  await mmio.open();
  await expect(mmio.figure('slowdown')).toHaveCount(0);
  await mmio.breakIt();
  await expect(mmio.latest).toContainText('Broken');
  await mmio.expectFigure('pps-plain', '5.00 M pkt/s');
  await mmio.expectFigure('pps-read', '1.16 M pkt/s');
  await mmio.expectFigure('slowdown', '4.3×');
  await mmio.runToEnd();
  await expect(page.getByTestId('loop-count')).toContainText('16 packets without the read, 3 with it');
  await mmio.setWork(1000);
  await mmio.expectFigure('slowdown', '1.7×');
  await mmio.fixIt();
  await expect(mmio.figure('slowdown')).toHaveCount(0);
});

test('Back undoes a step and Reset starts over', async ({ page }) => {
  const mmio = new MmioPage(page);
  await mmio.open();
  await mmio.step();
  await mmio.step();
  await mmio.expectFigure('clock', '120 ns');
  await mmio.back();
  await mmio.expectFigure('clock', '60 ns');
  await mmio.expectStep(1);
  await mmio.reset();
  await mmio.expectFigure('clock', '0 ns');
  await mmio.expectStep(0);
});

test('a share link restores the settings, the clock and the break-it switch', async ({ page }) => {
  const mmio = new MmioPage(page);
  await mmio.open();
  await mmio.setRoundTrip(800);
  await mmio.breakIt();
  await mmio.step();
  await mmio.step();
  const link = await mmio.copyLink();
  await page.goto(link);
  await mmio.expectFigure('reads-free', '4300 ns');
  await mmio.expectFigure('clock', '120 ns');
  await mmio.expectFigure('slowdown', '5.3×');
  await mmio.expectStep(4);
  await expect(page.getByTestId('hot-read')).toBeChecked();
  await expect(page.getByTestId('link-notice')).toHaveCount(0);
});

test('its controls work from the keyboard', async ({ page }) => {
  const mmio = new MmioPage(page);
  await mmio.open();
  const count = page.getByTestId('op-count');
  await count.focus();
  await page.keyboard.press('ArrowRight');
  await mmio.expectFigure('reads-retired', '0/6');
  const run = page.getByTestId('run-to-end');
  await run.focus();
  await page.keyboard.press('Enter');
  await mmio.expectFigure('reads-retired', '6/6');
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('hot-read')).toBeFocused();
  await page.keyboard.press(' ');
  await mmio.expectFigure('slowdown', '4.3×');
});

test('axe finds no serious violation, before and after breaking it', async ({ page }) => {
  const mmio = new MmioPage(page);
  await mmio.open();
  await expectNoSeriousAxe(page);
  await mmio.breakIt();
  await mmio.runToEnd();
  await mmio.expectFigure('slowdown', '4.3×');
  await expectNoSeriousAxe(page);
});

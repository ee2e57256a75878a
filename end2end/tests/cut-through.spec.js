import { test, expect } from './fixtures.js';
import { expectNoSeriousAxe } from './axe.js';
import { CutThroughPage } from '../pages/cut-through-page.js';

test('cut-through puts the first bit on the wire a chunk in; store-and-forward waits for all', async ({ page }) => {
  const ct = new CutThroughPage(page);
  await ct.open();
  await ct.expectFigure('sf-first', '192.0 ns');
  await ct.expectFigure('sf-last', '806.4 ns');
  await ct.expectFigure('ct-first', '16.0 ns');
  await ct.expectFigure('ct-last', '630.4 ns');
  await ct.expectFigure('mode', 'ct');
  await ct.expectFigure('ct-lane', 'ct at 10 GbE, as UG1586 supports');
  await ct.expectFigure('ct-outcome', 'OK');
  await ct.expectChunk('ct', 0, 'not yet arrived');

  await ct.step();
  await ct.expectFigure('clock', 'tick 1 · 16.0 ns');
  await ct.expectChunk('sf', 0, 'arrived over PCIe');
  await ct.expectChunk('ct', 0, 'transmitting on the wire');
  await expect(ct.latest).toContainText('Cut-through: first bit on the wire at 16.0 ns');

  await ct.runToEnd();
  await expect(ct.count('sf', 'sent')).toHaveText('12');
  await expect(ct.count('ct', 'sent')).toHaveText('12');
  await expect(page.getByTestId('narration-history')).toContainText('Store-and-forward: last bit on the wire at 806.4 ns');
});

test('frame size and rates change the computed times', async ({ page }) => {
  const ct = new CutThroughPage(page);
  await ct.open();
  await ct.setFrame(24);
  await ct.expectFigure('sf-first', '384.0 ns');
  await ct.setPcie(64);
  await ct.expectFigure('sf-first', '192.0 ns');
  await ct.expectFigure('ct-first', '8.0 ns');
  await ct.setWire(25);
  await ct.expectFigure('ct-last', '499.5 ns');
  await ct.expectFigure('ct-lane', 'generic physics, not Onload ct');
  await expect(ct.latest).toContainText('generic cut-through physics');
  await ct.setThreshold(4);
  await ct.expectFigure('ct-first', '32.0 ns');
  await ct.expectFigure('threshold', '4 chunks');
});

test('break it: a CPU stall in ct mode at 10 GbE runs the frame dry, poisons it, and the safe threshold fixes it', async ({ page }) => {
  const ct = new CutThroughPage(page);
  await ct.open();
  await ct.breakIt();
  await ct.expectFigure('ct-outcome', 'UNDERRUN');
  await ct.expectFigure('safe-threshold', '2 chunks');
  await ct.expectFigure('ct-last', '67.2 ns (poisoned)');
  await ct.expectFigure('stall', '128.0 ns before chunk 1');
  await ct.expectFigure('fallback', 'sent by the NIC');
  await expect(page.getByTestId('why')).toContainText('the application does nothing');
  await ct.steps(2);
  await expect(ct.latest).toContainText('the CPU is stalled');
  await ct.steps(3);
  await expect(ct.latest).toContainText('bad FCS');
  await expect(ct.latest).toContainText('sends the fallback copy');
  await ct.expectChunk('ct', 0, 'sent');
  await ct.expectChunk('ct', 1, 'cut off');
  await expect(ct.count('ct', 'cut-off')).toHaveText('11');

  await ct.useSafe();
  await ct.expectFigure('threshold', '2 chunks');
  await ct.expectFigure('ct-outcome', 'OK');
  await ct.expectFigure('ct-first', '160.0 ns');
  await ct.runToEnd();
  await expect(ct.count('ct', 'sent')).toHaveText('12');
  await expect(ct.count('ct', 'cut-off')).toHaveText('0');
});

test('break it the usual way: a CPU stall mid-frame runs it dry although PCIe outpaces the wire', async ({ page }) => {
  const ct = new CutThroughPage(page);
  await ct.open();
  await ct.expectFigure('ct-outcome', 'OK');
  await ct.expectFigure('safe-threshold', '1 chunk');
  await ct.jitter();
  await expect(page.getByTestId('narration-history')).toContainText('the CPU stalls for 96.0 ns before it writes chunk 2');
  await ct.expectFigure('stall', '96.0 ns before chunk 2');
  await ct.expectFigure('ct-outcome', 'UNDERRUN');
  await ct.expectFigure('safe-threshold', '3 chunks');
  await ct.expectFigure('fallback', 'sent by the NIC');
  await expect(page.getByTestId('why')).toContainText('not a bus slower than the wire');
  await ct.runToEnd();
  await ct.expectChunk('ct', 2, 'cut off');
  await expect(page.getByTestId('ct-timelines')).toContainText('CPU stall');
  await ct.useSafe();
  await ct.expectFigure('ct-outcome', 'OK');
  await ct.expectFigure('fallback', 'not needed');
  await ct.jitter(false);
  await ct.expectFigure('stall', 'none');
});

test('sf and sf-np send the whole frame: the stall poisons nothing, and the cut-through lane is only a comparison', async ({ page }) => {
  const ct = new CutThroughPage(page);
  await ct.open();
  await ct.breakIt();
  await ct.setMode('sf-np');
  await ct.expectFigure('mode', 'sf-np');
  await ct.expectFigure('sent', 'store-and-forward');
  await ct.expectFigure('fallback', 'not needed');
  await ct.expectFigure('ct-outcome', 'UNDERRUN');
  await expect(page.getByTestId('ct-timelines')).toContainText('Cut-through: for comparison');
  await ct.steps(5);
  await expect(ct.latest).toContainText('would run dry');
  await ct.setMode('sf');
  await ct.expectFigure('fallback', 'not needed');
  await expect(page.getByTestId('ct-timelines')).toContainText('Store-and-forward: sent in sf mode');
});

test('Back undoes a tick and Reset starts over', async ({ page }) => {
  const ct = new CutThroughPage(page);
  await ct.open();
  await ct.step();
  await ct.step();
  await ct.expectFigure('clock', 'tick 2 · 32.0 ns');
  await ct.back();
  await ct.expectFigure('clock', 'tick 1 · 16.0 ns');
  await ct.reset();
  await ct.expectFigure('clock', 'tick 0 · 0.0 ns');
  await ct.expectStep(0);
});

test('a share link restores the broken frame', async ({ page }) => {
  const ct = new CutThroughPage(page);
  await ct.open();
  await ct.breakIt();
  await ct.steps(5);
  const link = await ct.copyLink();
  await page.goto(link);
  await ct.expectFigure('ct-outcome', 'UNDERRUN');
  await ct.expectFigure('clock', 'tick 5 · 80.0 ns');
  await ct.expectChunk('ct', 1, 'cut off');
  await expect(page.getByTestId('wire-10')).toBeChecked();
  await expect(page.getByTestId('mode-ct')).toBeChecked();
  await ct.expectStep(6);
  await expect(page.getByTestId('link-notice')).toHaveCount(0);
});

test('its controls work from the keyboard', async ({ page }) => {
  const ct = new CutThroughPage(page);
  await ct.open();
  await page.getByTestId('threshold').focus();
  await page.keyboard.press('ArrowRight');
  await ct.expectFigure('threshold', '2 chunks');
  await page.getByTestId('break').focus();
  await page.keyboard.press('Enter');
  await ct.expectFigure('ct-outcome', 'UNDERRUN');
  await ct.expectFigure('threshold', '1 chunk');
  await page.getByTestId('use-safe').focus();
  await page.keyboard.press(' ');
  await ct.expectFigure('threshold', '2 chunks');
  await expect(page.getByTestId('jitter')).toBeChecked();
  await page.getByTestId('jitter').focus();
  await page.keyboard.press(' ');
  await expect(page.getByTestId('jitter')).not.toBeChecked();
});

test('axe finds no serious violation, before and after breaking it', async ({ page }) => {
  const ct = new CutThroughPage(page);
  await ct.open();
  await expectNoSeriousAxe(page);
  await ct.breakIt();
  await ct.steps(5);
  await ct.expectChunk('ct', 1, 'cut off');
  await ct.jitter(false);
  await expectNoSeriousAxe(page);
});

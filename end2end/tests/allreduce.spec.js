import { test, expect } from './fixtures.js';
import { expectNoSeriousAxe } from './axe.js';
import { AllReducePage } from '../pages/allreduce-page.js';

test('ring all-reduce with 4 GPUs finishes in 6 steps with identical vectors', async ({ page }) => {
  const ar = new AllReducePage(page);
  await ar.open();
  await ar.expectFigure('step', '0/6');
  await ar.expectCell(1, 0, 2, '1/4');
  await ar.step();
  // GPU 0's chunk 0 added into GPU 1: 1 + 2.
  await ar.expectCell(1, 0, 3, '2/4');
  await expect(ar.latest).toContainText('GPU 0 sends chunk 0 to GPU 1, which adds it in: 2 of 4 inputs summed (3, 3)');
  await ar.steps(2);
  await ar.expectFigure('phase', 'all-gather');
  await ar.expectCell(0, 2, 10, '4/4');
  await ar.steps(3);
  await ar.expectFigure('step', '6/6');
  await ar.expectFigure('identical', 'yes');
  for (let g = 0; g < 4; g += 1) await ar.expectCell(g, 7, 10, '4/4');
  await ar.expectFigure('sent', '150.0 %');
  await expect(ar.latest).toContainText('busbw = algbw × 2(N−1)/N = 24.63 GB/s');
});

test('the tree takes 2⌈log₂N⌉ steps and the table compares them with NCCL\'s pipelined tree', async ({ page }) => {
  const ar = new AllReducePage(page);
  await ar.open();
  await ar.chooseAlgorithm('tree');
  await ar.expectFigure('step', '0/4');
  await ar.steps(4);
  await ar.expectFigure('identical', 'yes');
  await expect(page.getByTestId('time-ring')).toHaveText('4.1 ms');
  // NCCL's tuner: 2⌊log₂4⌋ × 10 µs + 2 × 64 MiB / 25 GB/s.
  await expect(page.getByTestId('time-nccl')).toHaveText('5.4 ms');
  await expect(page.getByTestId('cost-tree')).toHaveAttribute('data-state', 'chosen');
});

test('break it: one slow link makes every ring step wait', async ({ page }) => {
  const ar = new AllReducePage(page);
  await ar.open();
  await ar.toggle('slow-link');
  await expect(ar.latest).toContainText("GPU 1's link now runs 4× slower");
  await ar.step();
  await expect(ar.latest).toContainText("it waited for GPU 1's link (4× slower)");
  await ar.expectFigure('elapsed', '2.7 ms');
});

test('starting again before the first step is refused with the reason', async ({ page }) => {
  const ar = new AllReducePage(page);
  await ar.open();
  await page.getByTestId('run-again').click();
  await expect(ar.latest).toHaveAttribute('data-tone', 'refused');
  await expect(ar.latest).toContainText('has not started yet');
  await ar.expectStep(0);
});

test('a share link restores the algorithm, the fault and the partial sums', async ({ page }) => {
  const ar = new AllReducePage(page);
  await ar.open();
  await ar.chooseAlgorithm('double-tree');
  await ar.toggle('straggler');
  await ar.steps(2);
  const link = await ar.copyLink();
  await page.goto(link);
  await expect(page.getByTestId('algorithm-double-tree')).toBeChecked();
  await expect(page.getByTestId('straggler')).toBeChecked();
  await ar.expectFigure('step', '2/4');
  await ar.expectStep(4);
  await expect(page.getByTestId('link-notice')).toHaveCount(0);
});

test('its controls work from the keyboard', async ({ page }) => {
  const ar = new AllReducePage(page);
  await ar.open();
  await page.getByTestId('gpus').focus();
  await page.keyboard.press('ArrowRight');
  await ar.expectFigure('step', '0/8');
  await page.getByTestId('algorithm-ring').focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByTestId('algorithm-tree')).toBeChecked();
  await ar.expectFigure('step', '0/6');
  await page.getByTestId('slow-link').focus();
  await page.keyboard.press(' ');
  await expect(page.getByTestId('slow-link')).toBeChecked();
});

test('axe finds no serious violation, before and after breaking it', async ({ page }) => {
  // Two full axe runs over a picture of hundreds of shapes.
  test.setTimeout(90_000);
  const ar = new AllReducePage(page);
  await ar.open();
  await expectNoSeriousAxe(page);
  await ar.toggle('slow-link');
  await ar.steps(2);
  await expectNoSeriousAxe(page);
});

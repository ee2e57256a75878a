import { test, expect } from './fixtures.js';
import { expectNoSeriousAxe } from './axe.js';
import { GpuMemoryPage } from '../pages/gpu-memory-page.js';

// 32 consecutive floats: 128 bytes in 4 sectors of 32 bytes, one 128-byte
// line, 100 %. Thread 0 opens sector 0; thread 1 reads from it too. A
// stride of 32 floats puts every thread 128 bytes from the next: 32
// sectors, 1,024 bytes moved for 128 asked, 12.5 %.
test('a warp load is placed thread by thread, then strided', async ({ page }) => {
  const gpu = new GpuMemoryPage(page);
  await gpu.open();
  await gpu.expectFigure('placed', '0/32');
  await gpu.expectFigure('sectors', '4');
  await gpu.expectFigure('lines', '1');
  await gpu.expectFigure('efficiency', '100.0 %');
  await expect(gpu.thread(0)).toHaveAttribute('data-state', 'waiting');

  await gpu.step();
  await expect(gpu.latest).toContainText('Thread 0 reads bytes 0–3: a new sector, 0 (line 0).');
  await expect(gpu.thread(0)).toHaveAttribute('data-state', 'placed');
  await expect(gpu.sector(0)).toHaveAttribute('data-state', 'fetched');
  await expect(gpu.sector(1)).toHaveAttribute('data-state', 'waiting');
  await gpu.step();
  await expect(gpu.latest).toContainText('which the warp already fetches: no more bytes move');
  await gpu.expectFigure('placed', '2/32');

  await gpu.choosePattern('strided');
  await gpu.expectFigure('placed', '0/32');
  await gpu.expectFigure('sectors', '32');
  await gpu.expectFigure('moved', '1,024 B');
  await gpu.expectFigure('efficiency', '12.5 %');
  await gpu.placeAll();
  await expect(gpu.latest).toContainText('32 sectors (1,024 bytes) moved in 32 lines. 12.5 % of the moved bytes are used.');
  await expect(gpu.sector(31)).toHaveAttribute('data-state', 'fetched');
});

// A column of a 32-word-wide shared tile: every thread in bank 0, a 32-way
// conflict. Padding each row by one word makes the stride 33: one bank each.
test('break it: a 32-word stride in shared memory, and the padding fix', async ({ page }) => {
  const gpu = new GpuMemoryPage(page);
  await gpu.open();
  await gpu.expectFigure('conflict', '1-way');
  await gpu.setSharedStride(32);
  await gpu.expectFigure('conflict', '32-way');
  await expect(gpu.latest).toContainText('a 32-way conflict, 32 requests');
  await expect(gpu.bank(0)).toHaveAttribute('data-state', 'conflict');
  await expect(gpu.bank(0)).toContainText('32');
  await expect(gpu.bank(1)).toHaveAttribute('data-state', 'unused');
  await gpu.togglePad();
  await gpu.expectFigure('conflict', '1-way');
  await expect(gpu.latest).toContainText('33 words apart in shared memory: each in a bank of its own');
  await expect(gpu.bank(1)).toHaveAttribute('data-state', 'single');
});

// Shifted by one float: 5 sectors, 160 bytes moved, 80.0 %.
test('a share link restores the pattern, the placed threads and the padding', async ({ page }) => {
  const gpu = new GpuMemoryPage(page);
  await gpu.open();
  await gpu.choosePattern('offset');
  await gpu.setSharedStride(32);
  await gpu.togglePad();
  await gpu.step();
  await gpu.step();
  const link = await gpu.copyLink();
  await page.goto(link);
  await gpu.expectFigure('placed', '2/32');
  await gpu.expectFigure('sectors', '5');
  await gpu.expectFigure('efficiency', '80.0 %');
  await gpu.expectFigure('conflict', '1-way');
  await expect(page.getByTestId('pattern-offset')).toBeChecked();
  await expect(page.getByTestId('pad')).toBeChecked();
  await expect(page.getByTestId('link-notice')).toHaveCount(0);
});

// 256 threads at 32 registers on an A100: 8 warps a block, 8 blocks, all
// 64 warp slots. 64 registers: 2,048 a warp, a sub-partition's 16,384 hold
// 8 warps, the SM 32: 4 blocks, 50 %. 48 KB of shared memory a block is 49
// KB with the 1 KB reserve: 3 blocks fit in 164 KB. On the roofline, 8
// FLOPs per float is 2 FLOP/byte, 3.11 TFLOP/s at 1,555 GB/s; strided, each
// float brings a 32-byte sector: 0.25 FLOP/byte, 0.39 TFLOP/s. On an H100
// (3,350 GB/s) the same kernel reaches 0.84.
test('occupancy: registers then shared memory run out; the roofline falls with the stride', async ({ page }) => {
  const gpu = new GpuMemoryPage(page);
  await gpu.open();
  await gpu.expectFigure('occupancy', '100.0 % (64 of 64 warps)');
  await gpu.expectFigure('limit', 'warp slots and registers');
  await expect(gpu.slot(63)).toHaveAttribute('data-state', 'active');

  await gpu.set('registers', 64);
  await gpu.expectFigure('occupancy', '50.0 % (32 of 64 warps)');
  await gpu.expectFigure('limit', 'registers');
  await expect(gpu.latest).toContainText('4 blocks of 8 warps fit on an SM, limited by registers');
  await expect(gpu.budget('registers')).toHaveAttribute('data-state', 'limiting');
  await expect(gpu.slot(32)).toHaveAttribute('data-state', 'free');

  await gpu.set('registers', 32);
  await gpu.set('shared', 48);
  await gpu.expectFigure('occupancy', '37.5 % (24 of 64 warps)');
  await gpu.expectFigure('limit', 'shared memory');
  await expect(gpu.budget('shared')).toContainText('3');

  await gpu.expectFigure('intensity', '2.00');
  await gpu.expectFigure('attainable', '3.11 TFLOP/s');
  await gpu.choosePattern('strided');
  await gpu.expectFigure('intensity', '0.25');
  await gpu.expectFigure('attainable', '0.39 TFLOP/s');
  await expect(page.getByTestId('kernel')).toHaveAttribute('data-state', 'memory-bound');
  await gpu.chooseGpu('9.0');
  await gpu.expectFigure('attainable', '0.84 TFLOP/s');
  await expect(gpu.latest).toContainText('the H100 SXM reaches 0.84 TFLOP/s of its 67.0 TFLOP/s peak');
});

// 200 KB of shared memory fits an H100 block (227 KB) but no A100 block
// (163 KB): the GPU change is refused, with its reason, until it is lowered.
test('a launch the GPU cannot run is refused with its reason', async ({ page }) => {
  const gpu = new GpuMemoryPage(page);
  await gpu.open();
  await gpu.chooseGpu('9.0');
  await gpu.set('shared', 200);
  await gpu.expectFigure('limit', 'shared memory');
  await page.getByTestId('cap-8-0').click();
  await expect(gpu.latest).toHaveAttribute('data-tone', 'refused');
  await expect(gpu.latest).toContainText('at most 163 KB of shared memory. Lower it first.');
  await expect(page.getByTestId('cap-9-0')).toBeChecked();
});

test('axe finds no serious violation, at rest and with everything broken', async ({ page }) => {
  const gpu = new GpuMemoryPage(page);
  await gpu.open();
  await expectNoSeriousAxe(page);
  await gpu.choosePattern('aos');
  await gpu.expectFigure('efficiency', '25.0 %');
  await gpu.setSharedStride(32);
  await gpu.placeAll();
  await expectNoSeriousAxe(page);
});

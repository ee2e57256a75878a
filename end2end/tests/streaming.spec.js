import { test, expect } from './fixtures.js';
import { expectNoSeriousAxe } from './axe.js';
import { StreamingPage } from '../pages/streaming-page.js';

// 64-byte frames, batches of 32, Gen3 ×16. A classic polling NIC spends
// four transactions on each packet (doorbell, descriptor fetch, data,
// write-back); Ensō writes the packet into its pipe and, once a batch, a
// notification and two head pointers: 32 × 1 + 3 = 35 for 32 packets.
test('one packet and one batch through both interfaces', async ({ page }) => {
  const s = new StreamingPage(page);
  await s.open();
  await s.step();
  await expect(s.cell('classic-transactions')).toHaveText('4');
  await expect(s.cell('enso-transactions')).toHaveText('1');
  await s.deliverBatch();
  await expect(s.cell('classic-transactions')).toHaveText('128');
  await expect(s.cell('enso-transactions')).toHaveText('35');
  await expect(s.cell('classic-up')).toHaveText('4,736');
  await expect(s.cell('enso-up')).toHaveText('2,904');
});

// 148 bytes up the link per packet against 90.75: only Ensō's 156.6 M
// packets a second clear 100 Gb/s of minimum frames (148.8 M).
test('the link allows Ensō line rate with minimum frames, and notifying every packet undoes it', async ({ page }) => {
  const s = new StreamingPage(page);
  await s.open();
  await expect(s.cell('classic-rate')).toHaveText('96.0 M');
  await expect(s.cell('enso-rate')).toHaveText('156.6 M');
  await s.notifyEvery();
  await expect(s.cell('enso-rate')).toHaveText('80.8 M');
});

// One held packet pins everything behind it in Ensō's pipe (freed in
// order), but only its own 2 KiB buffer on the classic NIC.
test('break it: a held packet pins the pipe behind it', async ({ page }) => {
  const s = new StreamingPage(page);
  await s.open();
  await s.toggle('hold');
  await s.step();
  await s.step();
  await s.step();
  await expect(s.cell('enso-pinned')).toHaveText('192');
  await expect(s.cell('classic-pinned')).toHaveText('2,048');
});

test('a share link restores the run', async ({ page }) => {
  const s = new StreamingPage(page);
  await s.open();
  await s.deliverBatch();
  const link = await s.copyLink();
  await page.goto(link);
  await expect(s.cell('enso-transactions')).toHaveText('35');
  await expect(page.getByTestId('link-notice')).toHaveCount(0);
});

test('axe finds no serious violation', async ({ page }) => {
  const s = new StreamingPage(page);
  await s.open();
  await s.deliverBatch();
  await expectNoSeriousAxe(page);
  await s.toggle('hold');
  await s.step();
  await expectNoSeriousAxe(page);
});

import { test, expect } from './fixtures.js';
import { expectNoSeriousAxe } from './axe.js';
import { PciePage } from '../pages/pcie-page.js';

// Gen3 ×8, MPS 256: 8 GT/s × 128/130 × 8 = 63.02 Gb/s each way; ACK and
// UpdateFC DLLPs and SKP sets leave 57.88 (the pcie example's figures). A
// 1,500-byte write is six MWrs of 24 bytes' overhead: 1500 / 1644 = 91.2 %
// data, 52.81 Gb/s back to back.
test('a 1,500-byte write goes out as six TLPs, one per Step', async ({ page }) => {
  const pcie = new PciePage(page);
  await pcie.open();
  await pcie.expectFigure('raw', '63.02 Gb/s');
  await pcie.expectFigure('tlp', '57.88 Gb/s');
  await pcie.expectFigure('effective', '52.81 Gb/s');
  await pcie.expectFigure('data-share', '91.2 %');
  await pcie.expectFigure('sent', '0/6');
  await expect(pcie.tlp(0)).toHaveAttribute('data-state', 'pending');

  await pcie.step();
  await expect(pcie.latest).toContainText('TLP 1 of 6 (device to host): a memory write carrying 256 bytes behind 24 bytes');
  await expect(pcie.tlp(0)).toHaveAttribute('data-state', 'sent');
  await pcie.expectFigure('sent', '1/6');

  await pcie.sendAll();
  await pcie.expectFigure('sent', '6/6');
  await expect(pcie.latest).toContainText('All 6 TLPs sent');
  await pcie.step();
  await expect(pcie.latest).toContainText('The whole transfer has been sent');
});

// MPS 128 doubles the TLPs: 12 × 24 bytes of overhead, 83.9 % data, and
// the link's DLLP rates for MPS 128 leave 56.67 Gb/s, 47.54 of it data.
test('a smaller payload size cuts the write into more TLPs and restarts it', async ({ page }) => {
  const pcie = new PciePage(page);
  await pcie.open();
  await pcie.step();
  await pcie.setMps(128);
  await pcie.expectFigure('sent', '0/12');
  await pcie.expectFigure('data-share', '83.9 %');
  await pcie.expectFigure('tlp', '56.67 Gb/s');
  await pcie.expectFigure('effective', '47.54 Gb/s');
  await expect(pcie.latest).toContainText('The maximum payload size is now 128 bytes');
  await pcie.setSize(64);
  await pcie.expectFigure('sent', '0/1');
});

// A read: requests up, completions down. Gen5 ×16 reading 4 KiB gets 421.84
// Gb/s from the link (the pcie example's read); 32 tags × 512 bytes per
// 500 ns is 262.14 Gb/s, so the tags then set the pace.
test('break it: too few read tags hold a fast link back', async ({ page }) => {
  const pcie = new PciePage(page);
  await pcie.open();
  await pcie.chooseKind('read');
  await expect(pcie.tlp(0)).toContainText('MRd');
  await expect(pcie.tlp(1)).toContainText('CplD');
  await pcie.setGeneration(5);
  await pcie.setLanes(16);
  await pcie.setSize(4096);
  await pcie.expectFigure('effective', '421.84 Gb/s');
  await pcie.setTags(32);
  await pcie.expectFigure('tag-limit', '262.14 Gb/s');
  await pcie.expectFigure('effective', '262.14 Gb/s');
  await pcie.sendAll();
  await expect(pcie.latest).toContainText('262.14 Gb/s');
});

test('a share link restores the link, the transfer and the TLPs sent', async ({ page }) => {
  const pcie = new PciePage(page);
  await pcie.open();
  await pcie.chooseKind('read');
  await pcie.setMps(128);
  await pcie.step();
  await pcie.step();
  const link = await pcie.copyLink();
  await page.goto(link);
  await pcie.expectFigure('sent', '2/15');
  await expect(page.getByTestId('kind-read')).toBeChecked();
  await expect(page.getByTestId('mps')).toHaveValue('128');
  await expect(page.getByTestId('link-notice')).toHaveCount(0);
});

test('its controls work from the keyboard, and Back undoes a TLP', async ({ page }) => {
  const pcie = new PciePage(page);
  await pcie.open();
  await pcie.step();
  await pcie.step();
  await pcie.back();
  await pcie.expectFigure('sent', '1/6');
  const send = page.getByTestId('send-all');
  await send.focus();
  await page.keyboard.press('Enter');
  await pcie.expectFigure('sent', '6/6');
  const mps = page.getByTestId('mps');
  await mps.focus();
  await page.keyboard.press('ArrowDown');
  await pcie.expectFigure('sent', '0/3');
});

test('axe finds no serious violation, for a write and for a tag-bound read', async ({ page }) => {
  const pcie = new PciePage(page);
  await pcie.open();
  await expectNoSeriousAxe(page);
  await pcie.chooseKind('read');
  await pcie.setTags(1);
  await pcie.sendAll();
  await expectNoSeriousAxe(page);
});

import { test, expect } from './fixtures.js';
import { expectNoSeriousAxe } from './axe.js';
import { EncapsulationPage } from '../pages/encapsulation-page.js';

test('send() walks down the stack: each layer adds its header and its checksum, exactly', async ({ page }) => {
  const enc = new EncapsulationPage(page);
  await enc.open();
  await enc.expectFigure('stage', 'socket buffer');
  await expect(enc.hexBytes()).toHaveCount(34);

  await enc.step();
  await enc.expectFigure('stage', 'TCP segment');
  await enc.expectFigure('tcp-checksum', '0x4f43');
  await expect(enc.hexBytes()).toHaveCount(54);
  await expect(enc.field('tcp-seq')).toContainText('1001');
  await expect(enc.field('tcp-flags')).toContainText('PSH ACK');

  await enc.step();
  await enc.expectFigure('ip-checksum', '0x26ab');
  await expect(enc.hexBytes()).toHaveCount(74);
  await expect(enc.field('ip-ttl')).toContainText('64');
  await expect(enc.field('ip-flags')).toContainText('DF');

  await enc.step();
  await enc.expectFigure('fcs', '0xf87277b5');
  await expect(enc.hexBytes()).toHaveCount(92);
  // Byte 22 of the frame is the TTL: 64 = 0x40.
  await expect(enc.byte(22)).toHaveText('40');
  await expect(enc.latest).toContainText('a CRC-32 over all 88 bytes');

  await enc.step();
  await enc.expectFigure('stage', 'on the wire');
  await enc.step();
  await enc.expectFigure('verdict', 'delivered');
  await enc.expectFigure('delivered', '34/34');
  await expect(page.getByTestId('history')).toContainText('delivered');
});

test('a payload over the MSS is cut into segments numbered by their first byte', async ({ page }) => {
  const enc = new EncapsulationPage(page);
  await enc.open();
  await enc.setField('mss', 16);
  await enc.send();
  await enc.expectFigure('mss', 16);
  await enc.step();
  await expect(enc.field('tcp-seq')).toContainText('1001');
  for (let i = 0; i < 5; i += 1) await enc.step();
  // Segment 2 starts 16 bytes later.
  await enc.expectFigure('segment', 2);
  await expect(enc.field('tcp-seq')).toContainText('1017');
});

test('break it: a flipped bit on the wire is caught by the FCS, or behind a middlebox by the IP checksum', async ({ page }) => {
  const enc = new EncapsulationPage(page);
  await enc.open();
  await enc.stepTo('on the wire');
  await enc.press('flip-ttl');
  await expect(enc.latest).toContainText('Time to Live reads 65 instead of 64');
  await expect(enc.field('ip-ttl')).toHaveAttribute('data-state', 'damaged');
  await enc.step();
  await enc.expectFigure('verdict', 'caught by FCS');

  await enc.reset();
  await enc.press('middlebox');
  await enc.stepTo('on the wire');
  await enc.press('flip-ttl');
  await enc.step();
  await enc.expectFigure('verdict', 'caught by IP checksum');
  await expect(enc.latest).toContainText('IPv4 header checksum');
});

test('break it: an MSS too large for the MTU with DF set is dropped, and TCP lowers its MSS', async ({ page }) => {
  const enc = new EncapsulationPage(page);
  await enc.open();
  await enc.press('df-drop');
  await enc.expectFigure('mss', 1460);
  await enc.step();
  await enc.step();
  await enc.expectFigure('stage', 'dropped by IP');
  await expect(enc.latest).toContainText('DF is set');
  await enc.step();
  await enc.expectFigure('mss', 536);
  await enc.expectFigure('stage', 'TCP segment');
});

test('flipping a bit before the frame is on the wire is refused with the reason', async ({ page }) => {
  const enc = new EncapsulationPage(page);
  await enc.open();
  await enc.press('flip-data');
  await expect(enc.latest).toHaveAttribute('data-tone', 'refused');
  await expect(enc.latest).toContainText('only while the frame is on the wire');
  await enc.expectStep(0);
  await enc.setField('src', '10.0.0.300:1');
  await enc.send();
  await expect(page.getByTestId('headers-msg')).toContainText('10.0.0.300');
  await enc.expectFigure('stage', 'socket buffer');
});

test('a share link restores the damaged frame', async ({ page }) => {
  const enc = new EncapsulationPage(page);
  await enc.open();
  await enc.stepTo('on the wire');
  await enc.press('flip-ttl');
  const link = await enc.copyLink();
  await page.goto(link);
  await enc.expectFigure('stage', 'on the wire');
  await expect(enc.field('ip-ttl')).toHaveAttribute('data-state', 'damaged');
  await expect(enc.field('ip-ttl')).toContainText('65');
  await enc.expectStep(5);
  await expect(page.getByTestId('link-notice')).toHaveCount(0);
});

test('fields are picked and bits flipped from the keyboard', async ({ page }) => {
  const enc = new EncapsulationPage(page);
  await enc.open();
  await enc.stepTo('on the wire');
  await enc.field('ip-ttl').focus();
  await page.keyboard.press('Enter');
  await expect(enc.bits).toContainText('Time to Live');
  await expect(enc.bit(1)).toHaveAttribute('data-state', '1');
  await enc.bit(7).focus();
  await page.keyboard.press('Enter');
  await expect(enc.latest).toContainText('Time to Live reads 65 instead of 64');
  await expect(enc.bit(7)).toHaveAttribute('data-state', '1');
});

test('axe finds no serious violation, before and after breaking it', async ({ page }) => {
  // Two full axe runs over a picture of hundreds of shapes.
  test.setTimeout(90_000);
  const enc = new EncapsulationPage(page);
  await enc.open();
  await expectNoSeriousAxe(page);
  await enc.stepTo('on the wire');
  await enc.field('ip-ttl').click();
  await enc.press('flip-ttl');
  await enc.step();
  await enc.expectFigure('verdict', 'caught by FCS');
  await expectNoSeriousAxe(page);
});

test('shapes a step adds are drawn as SVG, and shapes it keeps are the same nodes', async ({ page }) => {
  const enc = new EncapsulationPage(page);
  await enc.open();
  await expect(enc.hexBytes()).toHaveCount(34);
  // Mark a byte that stays, so we can tell whether the step rebuilt it.
  await enc.byte(0).evaluate((el) => { el.dataset.probe = 'kept'; });

  await enc.step();
  await expect(enc.hexBytes()).toHaveCount(54);
  await expect(enc.field('tcp-seq')).toContainText('1001');
  // The new TCP header's boxes came in with the step: each must be an SVG
  // element with a size on screen (parsed as HTML they would draw nothing).
  const boxes = await enc.layout.locator('[data-testid^="tcp-"]').evaluateAll((els) => els.map((el) => {
    const box = el.getBBox();
    return { svg: el instanceof SVGElement, drawn: box.width > 0 && box.height > 0 };
  }));
  expect(boxes.length).toBeGreaterThan(5);
  expect(boxes.every((b) => b.svg && b.drawn)).toBe(true);
  await expect(enc.hex.locator('[data-probe="kept"]')).toHaveCount(1);
});

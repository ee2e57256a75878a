import { test, expect } from './fixtures.js';
import { expectNoSeriousAxe } from './axe.js';
import { HandshakePage } from '../pages/handshake-page.js';

test('the three-way handshake with ISNs 100 and 300 takes one round trip', async ({ page }) => {
  const hs = new HandshakePage(page);
  await hs.open();
  await hs.expectStates('CLOSED', 'LISTEN');
  await hs.step();
  await hs.expectStates('SYN-SENT', 'LISTEN');
  await expect(hs.segment(1)).toContainText('[SYN] Seq=100 Len=0');
  await hs.step();
  await hs.expectStates('SYN-SENT', 'SYN-RECEIVED');
  await expect(hs.segment(2)).toContainText('[SYN, ACK] Seq=300 Ack=101 Len=0');
  await hs.step();
  await expect(hs.segment(3)).toContainText('[ACK] Seq=101 Ack=301 Len=0');
  await hs.step();
  await hs.expectStates('ESTABLISHED', 'ESTABLISHED');
  await hs.expectFigure('time', '150 ms');
  await expect(hs.pill('client', 'established')).toHaveAttribute('data-state', 'current');
  await expect(hs.pill('client', 'syn-sent')).toHaveAttribute('data-state', 'visited');
});

test('dropping the SYN-ACK: the timers resend it and both sides reach ESTABLISHED', async ({ page }) => {
  const hs = new HandshakePage(page);
  await hs.open();
  await hs.step();
  await hs.step();
  await hs.expectSegment(2, 'in flight');
  await hs.dropSegment(2);
  await hs.expectSegment(2, 'lost');
  await hs.expectFigure('dropped', 1);
  await hs.step();
  await hs.expectFigure('time', '1000 ms');
  await expect(hs.latest).toContainText('doubles its RTO to 2000 ms');
  await hs.step();
  await hs.step();
  await expect(hs.latest).toContainText('resends it as segment 5 <SEQ=300><ACK=101><CTL=SYN,ACK>');
  await hs.step();
  await hs.step();
  await hs.expectStates('ESTABLISHED', 'SYN-RECEIVED');
  await hs.step();
  await hs.expectStates('ESTABLISHED', 'ESTABLISHED');
  await hs.expectFigure('time', '1150 ms');
  await hs.expectFigure('retransmissions', 2);
  await hs.expectSegment(5, 'delivered');
  await hs.expectFigure('client-rto', '3000 ms');
});

test('break it: a crashed server answers data with a reset and the client closes', async ({ page }) => {
  const hs = new HandshakePage(page);
  await hs.open();
  for (let i = 0; i < 4; i += 1) await hs.step();
  await hs.press('crash-server');
  await hs.expectStates('ESTABLISHED', 'CLOSED');
  await hs.press('client-send');
  await expect(hs.segment(4)).toContainText('[PSH, ACK] Seq=101 Ack=301 Len=100');
  await hs.step();
  await expect(hs.segment(5)).toContainText('[RST] Seq=301 Len=0');
  await hs.step();
  await hs.expectStates('CLOSED', 'CLOSED');
  await expect(hs.latest).toContainText('connection reset');
});

test('sending with no connection is refused with the reason; before ESTABLISHED it is queued', async ({ page }) => {
  const hs = new HandshakePage(page);
  await hs.open();
  await hs.press('client-send');
  await expect(hs.latest).toHaveAttribute('data-tone', 'refused');
  await expect(hs.latest).toContainText('connection does not exist');
  await hs.expectStep(0);
  await hs.step();
  await hs.press('client-send');
  await expect(hs.latest).toContainText('TCP queues the 100 bytes');
});

test('a share link restores the lost segment and the states', async ({ page }) => {
  const hs = new HandshakePage(page);
  await hs.open();
  await hs.step();
  await hs.step();
  await hs.dropSegment(2);
  await hs.step();
  const link = await hs.copyLink();
  await page.goto(link);
  await hs.expectSegment(2, 'lost');
  await hs.expectStates('SYN-SENT', 'SYN-RECEIVED');
  await hs.expectFigure('time', '1000 ms');
  await hs.expectStep(4);
  await expect(page.getByTestId('link-notice')).toHaveCount(0);
});

test('a segment in flight is dropped from the keyboard, and the controls work by keys', async ({ page }) => {
  const hs = new HandshakePage(page);
  await hs.open();
  await page.getByTestId('client-connect').focus();
  await page.keyboard.press('Enter');
  await hs.expectStates('SYN-SENT', 'LISTEN');
  await hs.segment(1).focus();
  await page.keyboard.press('Enter');
  await hs.expectSegment(1, 'lost');
  await page.getByTestId('server-listens').focus();
  await page.keyboard.press(' ');
  await hs.expectStates('CLOSED', 'CLOSED');
});

test('axe finds no serious violation, before and after breaking it', async ({ page }) => {
  // Two full axe runs over a picture of hundreds of shapes.
  test.setTimeout(90_000);
  const hs = new HandshakePage(page);
  await hs.open();
  await expectNoSeriousAxe(page);
  await hs.step();
  await hs.step();
  await hs.dropSegment(2);
  await hs.step();
  await hs.press('crash-client');
  await hs.expectStates('CLOSED', 'SYN-RECEIVED');
  await expectNoSeriousAxe(page);
});

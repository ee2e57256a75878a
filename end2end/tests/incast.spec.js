import { test, expect } from './fixtures.js';
import { expectNoSeriousAxe } from './axe.js';
import { IncastPage } from '../pages/incast-page.js';

test('16 answers of 16 packets overflow a 64-packet port and wait SRTT + 200 ms for their timers', async ({ page }) => {
  const inc = new IncastPage(page);
  await inc.open();
  await expect(inc.latest).toContainText('256 packets head for one port with room for 64');
  await inc.step();
  await inc.expectFigure('queue', '64/64');
  await inc.expectFigure('drops', 57);
  await inc.steps(7);
  await inc.expectFigure('waiting', 5);
  await expect(page.locator('[data-testid^="sender-"][data-state="waiting for its RTO"]')).toHaveCount(5);
  await inc.steps(26);
  await expect(inc.latest).toContainText('Request 1 complete after 203.2 ms: 14.7 Mbit/s of goodput, 177 packets lost, 15 timeouts');
  await inc.expectFigure('timeouts', 15);
  await inc.expectFigure('goodput', '14.7 Mbit/s');
  await expect(page.getByTestId('why')).toContainText('Without SACK and a tail loss probe, as here');
});

test('the sweep draws the collapse, and a 1 ms RTO floor lifts the curve', async ({ page }) => {
  const inc = new IncastPage(page);
  await inc.open();
  await inc.sweep();
  await expect(inc.latest).toContainText('first falls below half the link at N = 6, with 27.1 Mbit/s');
  await expect(inc.curve(0)).toHaveAttribute('data-state', 'no fix');
  await inc.toggle('fine-rto');
  await expect(inc.latest).toContainText('RTO floor now 1.0 ms');
  await inc.sweep();
  await expect(inc.curve(1)).toHaveAttribute('data-state', '1 ms RTO floor');
  await expect(inc.latest).toContainText('with 1 ms RTO floor');
});

test('break it: 64 servers at once; sweeping the same fixes twice is refused', async ({ page }) => {
  const inc = new IncastPage(page);
  await inc.open();
  await inc.toggle('fan-in');
  await expect(inc.server(64)).toBeVisible();
  await expect(inc.latest).toContainText('1024 packets head for one port with room for 64');
  await inc.sweep();
  await inc.sweep();
  await expect(inc.latest).toHaveAttribute('data-tone', 'refused');
  await expect(inc.latest).toContainText('already on the chart');
});

test('a share link restores the fixes and the clock', async ({ page }) => {
  const inc = new IncastPage(page);
  await inc.open();
  await inc.toggle('dctcp');
  await inc.steps(3);
  const link = await inc.copyLink();
  const queue = await inc.figure('queue').textContent();
  await page.goto(link);
  await expect(page.getByTestId('dctcp')).toBeChecked();
  await inc.expectFigure('time', '300.0 µs');
  await inc.expectFigure('queue', queue);
  await expect(page.getByTestId('k-label')).toHaveText('K = 20');
  await inc.expectStep(4);
  await expect(page.getByTestId('link-notice')).toHaveCount(0);
});

test('its controls work from the keyboard', async ({ page }) => {
  const inc = new IncastPage(page);
  await inc.open();
  await page.getByTestId('fine-rto').focus();
  await page.keyboard.press(' ');
  await expect(page.getByTestId('fine-rto')).toBeChecked();
  await page.getByTestId('servers').focus();
  await page.keyboard.press('ArrowLeft');
  await expect(page.getByTestId('servers-value')).toContainText('15');
  await expect(inc.server(16)).toHaveCount(0);
  await page.getByTestId('sweep').focus();
  await page.keyboard.press('Enter');
  await expect(inc.curve(0)).toHaveAttribute('data-state', '1 ms RTO floor');
});

test('axe finds no serious violation, before and after breaking it', async ({ page }) => {
  // Two full axe runs over a picture of hundreds of shapes.
  test.setTimeout(90_000);
  const inc = new IncastPage(page);
  await inc.open();
  await expectNoSeriousAxe(page);
  await inc.toggle('fan-in');
  await inc.steps(3);
  await inc.sweep();
  await expect(inc.curve(0)).toBeVisible();
  await expectNoSeriousAxe(page);
});

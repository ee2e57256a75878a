import { test, expect } from './fixtures.js';
import { expectNoSeriousAxe } from './axe.js';
import { MetastablePage } from '../pages/metastable-page.js';

// 8 new requests a tick against a capacity of 10, a 5-tick timeout, two
// retries. From tick 20 a slowdown to 5 a tick lasts 10 ticks: the queue
// grows to 30 and then drains, since no request waited past its timeout.
test('a short slowdown fills the queue and the server recovers', async ({ page }) => {
  const m = new MetastablePage(page);
  await m.open();
  await m.expectFigure('tick', '0/200');
  await m.expectFigure('state', 'before the trigger');
  await m.expectFigure('queued', '0 (0)');

  await m.step();
  await expect(m.latest).toContainText('Tick 0: 8 new requests and 0 retries arrive. The server completes 8 of its 10: 8 in time.');
  await m.expectFigure('goodput', '8');
  await m.expectFigure('offered', '8');

  await m.run10();
  await m.run10();
  await m.expectFigure('tick', '21/200');
  await m.expectFigure('state', 'trigger');
  await m.expectFigure('queued', '3 (0)');
  await m.expectFigure('goodput', '5');
  await expect(m.latest).toContainText('The trigger: for 10 ticks the server completes only 5 requests a tick.');

  await m.toEnd();
  await m.expectFigure('tick', '200/200');
  await m.expectFigure('state', 'recovered at tick 30');
  await m.expectFigure('recent', '8.0');
  await expect(m.latest).toContainText('The run is over. It recovered at tick 30');
  await expect(m.cell(0)).toHaveAttribute('data-state', 'empty');
});

// A 15-tick slowdown leaves 190 requests queued, 150 dead: every client
// times out and retries, 24 attempts a tick against a capacity of 10, and
// goodput stays at 0 although the load is 80 % of capacity. A retry budget
// turned on at tick 100 lets the queue drain: recovered at tick 179.
test('break it: a longer trigger leaves it stuck until a retry budget', async ({ page }) => {
  const m = new MetastablePage(page);
  await m.open();
  await m.setTriggerLength(15);
  await m.toEnd();
  await m.expectFigure('state', 'overloaded');
  await m.expectFigure('queued', '190 (150)');
  await m.expectFigure('offered', '24');
  await m.expectFigure('recent', '0.0');
  await expect(m.latest).toContainText('never recovered');
  await expect(m.cell(0)).toHaveAttribute('data-state', 'dead');

  await m.restart();
  for (let i = 0; i < 10; i++) await m.run10();
  await m.expectFigure('tick', '100/200');
  await m.expectFigure('state', 'overloaded');
  await m.fix('budget');
  await m.toEnd();
  await m.expectFigure('state', 'recovered at tick 179');
  await m.expectFigure('tokens', '10.0');
  await expect(m.cell(0)).toHaveAttribute('data-state', 'empty');
});

test('a share link restores the trigger, the fixes and the ticks', async ({ page }) => {
  const m = new MetastablePage(page);
  await m.open();
  await m.setTriggerLength(15);
  await m.fix('deadline');
  await m.step();
  await m.step();
  await m.step();
  const link = await m.copyLink();
  await page.goto(link);
  await m.expectFigure('tick', '3/200');
  await expect(page.getByTestId('deadline')).toBeChecked();
  await expect(page.getByTestId('trigger-length')).toHaveValue('15');
  await expect(page.getByTestId('link-notice')).toHaveCount(0);
});

test('axe finds no serious violation, at rest and stuck with a fix on', async ({ page }) => {
  const m = new MetastablePage(page);
  await m.open();
  await expectNoSeriousAxe(page);
  await m.setTriggerLength(15);
  await m.toEnd();
  await m.fix('shed');
  await expectNoSeriousAxe(page);
});

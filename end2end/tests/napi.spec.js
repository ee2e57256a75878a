import { test, expect } from './fixtures.js';
import { NapiPage } from '../pages/napi-page.js';

test('a burst of 6 with budget 4: one hard IRQ, two polls, line re-armed', async ({ page }) => {
  const napi = new NapiPage(page);
  await napi.open();
  await napi.expectFigure('budget', 4);
  await napi.setBurst(6);
  await napi.sendBurst();
  await napi.expectFigure('irqs', 1);
  await napi.expectFigure('line', 'MASKED');
  await napi.expectFigure('occupancy', '6/16');

  await napi.step();
  await napi.expectFigure('drained', 4);
  await napi.expectFigure('line', 'MASKED');
  await napi.step();
  await napi.expectFigure('drained', 2);
  await napi.expectFigure('polls', 2);
  await napi.expectFigure('line', 'ARMED');
  await napi.expectFigure('irqs', 1);
  await napi.expectFigure('irqs-per-packet', 6);
  await expect(page.getByTestId('irq-line')).toContainText('ARMED');
  await expect(page.getByTestId('poll-history')).toContainText('2/4 → re-armed');
});

test('a burst larger than the free ring space is dropped in part', async ({ page }) => {
  const napi = new NapiPage(page);
  await napi.open();
  await napi.setBurst(20);
  await napi.sendBurst();
  await napi.expectFigure('drops', 4);
  await napi.expectFigure('occupancy', '16/16');
  await expect(page.getByTestId('narration-history')).toContainText('20 packets');
  await expect(napi.latest).toContainText('ARMED');
});

test('the budget slider changes how much each poll drains', async ({ page }) => {
  const napi = new NapiPage(page);
  await napi.open();
  await napi.setBudget(8);
  await napi.expectFigure('budget', 8);
  await napi.setBurst(6);
  await napi.sendBurst();
  await napi.step();
  await napi.expectFigure('drained', 6);
  await napi.expectFigure('polls', 1);
  await napi.expectFigure('line', 'ARMED');
});

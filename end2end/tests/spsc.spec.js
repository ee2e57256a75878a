import { test, expect } from './fixtures.js';
import AxeBuilder from '@axe-core/playwright';
import { SpscPage } from '../pages/spsc-page.js';

async function expectNoSeriousViolations(page) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => ['serious', 'critical'].includes(v.impact));
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
}

test('an item travels slot first, then tail, and arrives intact', async ({ page }) => {
  const ring = new SpscPage(page);
  await ring.open();
  await ring.expectFigure('occupancy', '0/4');
  await ring.producer();
  await expect(ring.latest).toHaveText('The producer reads head = 0 with an acquire load: 4 free slots.');
  await ring.producer(2);
  await expect(ring.latest).toHaveText('The producer publishes tail = 1 with a release store: it cannot reach memory before the slot 0 store.');
  await ring.expectFigure('occupancy', '1/4');
  await ring.expectFigure('tail', 0);
  await expect(ring.entry(0)).toHaveAttribute('data-state', 'can leave');
  await expect(ring.entry(1)).toHaveAttribute('data-state', 'held');
  await expect(page.getByTestId('drain-p-1')).toHaveText('Drain tail = 1 rel');

  // The consumer cannot see the item yet.
  await ring.consumer();
  await expect(ring.latest).toHaveAttribute('data-tone', 'refused');
  await expect(ring.latest).toContainText("the producer's tail store is still in its store buffer: drain it");
  await ring.drainProducer(0);
  await expect(ring.slot(0)).toContainText('1');
  await ring.drainProducer(0);
  await ring.expectFigure('tail', 1);
  await ring.consumer(2);
  await expect(ring.latest).toHaveAttribute('data-tone', 'done');
  await expect(ring.latest).toContainText('The consumer reads slot 0: value 1, item 0 as the producer sent it.');
  await ring.consumer();
  await ring.expectFigure('head', 0);
  await ring.drainConsumer();
  await ring.expectFigure('head', 1);
  await ring.expectFigure('dequeued', 1);
  await expect(ring.received).toContainText('item 0: 1');
  await expect(ring.damage).toContainText('none');
  await ring.expectFigure('transfers', 1);
});

test('a release tail store cannot overtake the slot store: refused with the reason', async ({ page }) => {
  const ring = new SpscPage(page);
  await ring.open();
  await ring.producer(3);
  await ring.drainProducer(1);
  await expect(ring.latest).toHaveAttribute('data-tone', 'refused');
  await expect(ring.latest).toContainText('That tail store is a release: it leaves only after the 1 older store ahead of it.');
  await expect(page.getByTestId('drain-c')).toHaveClass(/refused/);
  await ring.expectStep(3);
});

test('break it: a relaxed tail store lets the consumer read a stale slot', async ({ page }) => {
  const ring = new SpscPage(page);
  await ring.open();
  await expectNoSeriousViolations(page);
  await ring.relaxedTail();
  await expect(ring.latest).toContainText('Break: tail is published with a relaxed store');
  await ring.producer(3);
  await expect(ring.latest).toHaveAttribute('data-tone', 'warn');
  await expect(ring.entry(1)).toHaveAttribute('data-state', 'can leave');
  await ring.drainProducer(1);
  await expect(ring.latest).toContainText('tail = 1 reaches memory while slot 0 still holds 0');
  await ring.consumer(2);
  await expect(ring.latest).toHaveAttribute('data-tone', 'fault');
  await expect(ring.damage).toContainText('Stale: item 0 should be 1 but slot 0 still held 0: tail became visible before the slot store.');
  await ring.expectFigure('damage', 1);
  await expect(page.getByTestId('who-tail')).toContainText('relaxed!');
  await ring.step();
  await expect(ring.latest).toContainText('Play stops at the damage');
  await expectNoSeriousViolations(page);

  await ring.relaxedTail(false);
  await ring.expectFigure('damage', 0);
  await ring.expectFigure('enqueued', 0);
});

test('break it: publishing head before reading the slot lets the producer overwrite it', async ({ page }) => {
  const ring = new SpscPage(page);
  await ring.open();
  await ring.earlyHead();
  await ring.stepUntil('damage', 1);
  await expect(ring.damage).toContainText('Overwritten: item 0 should be 1 but slot 0 already held item 4');
  await expect(ring.received).toContainText('item 0: 5');
});

test('cached indices cut the index-line transfers', async ({ page }) => {
  test.setTimeout(90_000); // about 150 steps, each waited for
  const ring = new SpscPage(page);
  await ring.open();
  await ring.stepUntil('dequeued', 8);
  await ring.expectFigure('index-reads', 16);
  await ring.expectFigure('transfers', 15);
  await ring.expectFigure('uncached-transfers', 15);
  await ring.cached();
  await ring.expectFigure('dequeued', 0);
  await ring.producer();
  await expect(ring.latest).toContainText('no need to read head');
  await ring.stepUntil('dequeued', 8);
  await ring.expectFigure('index-reads', 9);
  await ring.expectFigure('transfers', 9);
  await ring.expectFigure('uncached-transfers', 15);
  await expect(page.getByTestId('moves-head')).toHaveText('1 (uncached: 7)');
});

test('a copied link reopens the same ring', async ({ page, browser }) => {
  const ring = new SpscPage(page);
  await ring.open();
  await ring.setCapacity(2);
  await ring.expectFigure('occupancy', '0/2');
  await ring.cached();
  await ring.producer(3);
  const link = await ring.copyLink();
  const fresh = await browser.newContext();
  const other = new SpscPage(await fresh.newPage());
  await other.page.goto(link);
  await other.expectStep(4);
  await other.expectFigure('occupancy', '1/2');
  await expect(other.page.getByTestId('cached')).toBeChecked();
  await expect(other.entry(1)).toHaveAttribute('data-state', 'held');
  await expect(other.page.getByTestId('link-notice')).toHaveCount(0);
  await fresh.close();
});

test('the ring is driven from the keyboard', async ({ page }) => {
  const ring = new SpscPage(page);
  await ring.open();
  const producer = page.getByTestId('producer-step');
  for (let i = 0; i < 60; i += 1) {
    await page.keyboard.press('Tab');
    if (await producer.evaluate((el) => el === document.activeElement)) break;
  }
  await expect(producer).toBeFocused();
  await page.keyboard.press('Enter');
  await ring.expectStep(1);
  await page.keyboard.press('Enter');
  await ring.expectSlot(0, 'being written');
  await page.getByTestId('cached').focus();
  await page.keyboard.press(' ');
  await ring.expectFigure('enqueued', 0);
  await expect(page.getByTestId('cached')).toBeChecked();
  const capacity = page.getByTestId('capacity');
  await capacity.focus();
  await page.keyboard.press('ArrowRight');
  await ring.expectFigure('occupancy', '0/5');
});

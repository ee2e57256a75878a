import { expect } from '@playwright/test';
import { DemoPage } from './demo-page.js';

export class SpscPage extends DemoPage {
  constructor(page) {
    super(page, '/memory/spsc');
    this.received = page.getByTestId('received');
    this.damage = page.getByTestId('damage');
  }

  async producer(times = 1) {
    for (let i = 0; i < times; i += 1) await this.page.getByTestId('producer-step').click();
  }
  async consumer(times = 1) {
    for (let i = 0; i < times; i += 1) await this.page.getByTestId('consumer-step').click();
  }
  async drainProducer(i) { await this.page.getByTestId(`drain-p-${i}`).click(); }
  async drainConsumer() { await this.page.getByTestId('drain-c').click(); }
  async cached(on = true) { await this.page.getByTestId('cached').setChecked(on); }
  async relaxedTail(on = true) { await this.page.getByTestId('relaxed-tail').setChecked(on); }
  async earlyHead(on = true) { await this.page.getByTestId('early-head').setChecked(on); }
  async setCapacity(n) { await this.page.getByTestId('capacity').fill(String(n)); }

  slot(i) { return this.page.getByTestId(`slot-${i}`); }
  entry(i) { return this.page.getByTestId(`entry-${i}`); }
  async expectSlot(i, state) { await expect(this.slot(i)).toHaveAttribute('data-state', state); }

  // Presses Step until the figure `key` reads `value` (at most `limit` steps).
  async stepUntil(key, value, limit = 120) {
    for (let i = 0; i < limit; i += 1) {
      if ((await this.figure(key).textContent()) === String(value)) return;
      const before = await this.stepCount.textContent();
      await this.step();
      await expect(this.stepCount).not.toHaveText(before);
    }
    await this.expectFigure(key, value);
  }
}

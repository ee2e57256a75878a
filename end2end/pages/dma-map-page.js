import { expect } from '@playwright/test';
import { DemoPage } from './demo-page.js';

export class DmaMapPage extends DemoPage {
  constructor(page) {
    super(page, '/nic/dma-map');
    this.faultLog = page.getByTestId('fault-log');
  }

  async strict() { await this.page.getByTestId('mode-strict').check(); }
  async lazy() { await this.page.getByTestId('mode-lazy').check(); }
  async recycling() { await this.page.getByTestId('buffers-recycle').check(); }
  async perFrame() { await this.page.getByTestId('buffers-per-frame').check(); }
  async recycle() { await this.page.getByTestId('recycle').click(); }
  async map() { await this.page.getByTestId('map').click(); }
  async unmap() { await this.page.getByTestId('unmap').click(); }
  async write() { await this.page.getByTestId('write').click(); }
  async flush() { await this.page.getByTestId('flush').click(); }
  async staleDma() { await this.page.getByTestId('stale-dma').click(); }
  async steps(n) {
    for (let i = 0; i < n; i += 1) {
      const before = await this.stepCount.textContent();
      await this.step();
      await expect(this.stepCount).not.toHaveText(before);
    }
  }
  async expectState(testid, state) { await expect(this.page.getByTestId(testid)).toHaveAttribute('data-state', state); }
}

import { expect } from '@playwright/test';
import { DemoPage } from './demo-page.js';

export class CutThroughPage extends DemoPage {
  constructor(page) {
    super(page, '/nic/cut-through');
  }

  chunk(timeline, k) { return this.page.getByTestId(`${timeline}-chunk-${k}`); }
  async expectChunk(timeline, k, state) { await expect(this.chunk(timeline, k)).toHaveAttribute('data-state', state); }
  count(timeline, state) { return this.page.getByTestId(`${timeline}-count-ct-${state}`); }

  async setFrame(n) { await this.page.getByTestId('frame-size').fill(String(n)); }
  async setPcie(gbps) { await this.page.getByTestId('pcie-rate').fill(String(gbps)); }
  async setMode(mode) { await this.page.getByTestId(`mode-${mode}`).check(); }
  async steps(n) { for (let i = 0; i < n; i++) await this.step(); }
  async setWire(gbps) { await this.page.getByTestId(`wire-${gbps}`).check(); }
  async setThreshold(n) { await this.page.getByTestId('threshold').fill(String(n)); }
  async useSafe() { await this.page.getByTestId('use-safe').click(); }
  async runToEnd() { await this.page.getByTestId('run-to-end').click(); }
  async breakIt() { await this.page.getByTestId('break').click(); }
  async jitter(on = true) { await this.page.getByTestId('jitter').setChecked(on); }
}

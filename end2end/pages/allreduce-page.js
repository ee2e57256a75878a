import { expect } from '@playwright/test';
import { DemoPage } from './demo-page.js';

export class AllReducePage extends DemoPage {
  constructor(page) {
    super(page, '/net/allreduce');
    this.buffers = page.getByTestId('buffers');
  }

  // GPU g's element e in the buffer grid.
  cell(g, e) { return this.buffers.getByTestId(`buf-${g}`).getByTestId(`v${e}`); }
  async expectCell(g, e, value, state) {
    await expect(this.cell(g, e)).toContainText(String(value));
    if (state) await expect(this.cell(g, e)).toHaveAttribute('data-state', state);
  }
  async steps(n) { for (let i = 0; i < n; i += 1) await this.step(); }
  async chooseAlgorithm(key) { await this.page.getByTestId(`algorithm-${key}`).check(); }
  async toggle(id) { await this.page.getByTestId(id).click(); }
}

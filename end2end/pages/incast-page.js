import { expect } from '@playwright/test';
import { DemoPage } from './demo-page.js';

export class IncastPage extends DemoPage {
  constructor(page) {
    super(page, '/net/incast');
    this.chart = page.getByTestId('chart');
  }

  server(i) { return this.page.getByTestId(`sender-${i}`); }
  async expectServer(i, state) { await expect(this.server(i)).toHaveAttribute('data-state', state); }
  curve(i) { return this.chart.getByTestId(`curve-${i}`); }
  async sweep() { await this.page.getByTestId('sweep').click(); }
  async toggle(id) { await this.page.getByTestId(id).click(); }
  async steps(n) { for (let i = 0; i < n; i += 1) await this.step(); }
}

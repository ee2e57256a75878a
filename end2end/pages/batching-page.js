import { expect } from '@playwright/test';
import { DemoPage } from './demo-page.js';

export class BatchingPage extends DemoPage {
  constructor(page) {
    super(page, '/cpu/batching');
    this.summary = page.getByTestId('lat-summary');
  }

  shape(key) { return this.page.getByTestId(key); }
  curve(batch, column) { return this.page.getByTestId(`curve-${batch}-${column}`); }

  async set(id, value) {
    await this.page.getByTestId(id).fill(String(value));
    await this.page.getByTestId(id).blur();
  }
  async finish() { await this.page.getByTestId('finish').click(); }
  async breakIt() { await this.page.getByTestId('break').click(); }
}

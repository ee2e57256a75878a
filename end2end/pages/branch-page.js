import { expect } from '@playwright/test';
import { DemoPage } from './demo-page.js';

export class BranchPage extends DemoPage {
  constructor(page) {
    super(page, '/cpu/branch');
    this.current = page.getByTestId('current');
    this.patternMsg = page.getByTestId('pattern-msg');
  }

  shape(key) { return this.page.getByTestId(key); }
  async expectState(key, state) { await expect(this.shape(key)).toHaveAttribute('data-state', String(state)); }

  async data(value) { await this.page.getByTestId(`data-${value}`).check(); }
  async predictor(value) { await this.page.getByTestId(`predictor-${value}`).check(); }
  async pattern(text) {
    await this.page.getByTestId('pattern-text').fill(text);
    await this.page.getByTestId('pattern').click();
  }
  async run16() { await this.page.getByTestId('run-16').click(); }
  async finish() { await this.page.getByTestId('finish').click(); }
  async breakIt() { await this.page.getByTestId('break').click(); }
}

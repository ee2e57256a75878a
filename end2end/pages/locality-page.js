import { expect } from '@playwright/test';
import { DemoPage } from './demo-page.js';

export class LocalityPage extends DemoPage {
  constructor(page) {
    super(page, '/cpu/locality');
  }

  async walk(name) { await this.page.getByTestId(`walk-${name}`).check(); }
  async runToEnd() { await this.page.getByTestId('run-to-end').click(); }
  async runAll() { await this.page.getByTestId('run-all').click(); }
  async columnMajor() { await this.page.getByTestId('column-major').click(); }
  async steps(n) { for (let i = 0; i < n; i += 1) await this.step(); }

  element(i) { return this.page.getByTestId(`elem-${i}`); }
  async expectElement(i, state) { await expect(this.element(i)).toHaveAttribute('data-state', state); }
  total(walk) { return this.page.getByTestId(`total-${walk}`); }
  async expectTotal(walk, state) { await expect(this.total(walk)).toHaveAttribute('data-state', state); }
  async expectPoint(stride, rate) { await expect(this.page.getByTestId(`pt-${stride}`)).toHaveAttribute('data-state', rate); }
}

import { expect } from '@playwright/test';
import { DemoPage } from './demo-page.js';

export class TlbPage extends DemoPage {
  constructor(page) {
    super(page, '/cpu/tlb');
    this.va = page.getByTestId('va');
  }

  async load(text) {
    await this.va.fill(text);
    await this.page.getByTestId('translate').click();
  }
  async loopOver() { await this.page.getByTestId('loop-over').click(); }
  async loopFit() { await this.page.getByTestId('loop-fit').click(); }
  async pwc(on = true) { await this.page.getByTestId('pwc').setChecked(on); }
  async huge(on = true) { await this.page.getByTestId('huge').setChecked(on); }
  async steps(n) { for (let i = 0; i < n; i += 1) await this.step(); }

  field(key) { return this.page.getByTestId(`va-${key}`); }
  table(key) { return this.page.getByTestId(`walk-${key}`); }
  async expectTable(key, state) { await expect(this.table(key)).toHaveAttribute('data-state', state); }
  entry(set, way) { return this.page.getByTestId(`tlb-set-${set}-way-${way}`); }
}

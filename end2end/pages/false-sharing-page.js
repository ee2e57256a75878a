import { expect } from '@playwright/test';
import { DemoPage } from './demo-page.js';

export class FalseSharingPage extends DemoPage {
  constructor(page) {
    super(page, '/memory/false-sharing');
  }

  async steps(n) { for (let i = 0; i < n; i += 1) await this.step(); }
  async writeA() { await this.page.getByTestId('write-a').click(); }
  async writeB() { await this.page.getByTestId('write-b').click(); }
  async layout(value) { await this.page.getByTestId(`layout-${value}`).check(); }
  // Core (0 = A) and line: the copy's MESI letter is its data-state.
  line(core, l) { return this.page.getByTestId(`line-${core}-${l}`); }
  async expectLine(core, l, state) { await expect(this.line(core, l)).toHaveAttribute('data-state', state); }
  compare(row, layout) { return this.page.getByTestId(`cmp-${row}-${layout}`); }
  bus() { return this.page.getByTestId('latest'); }
}

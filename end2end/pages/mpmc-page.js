import { expect } from '@playwright/test';
import { DemoPage } from './demo-page.js';

export class MpmcPage extends DemoPage {
  constructor(page) {
    super(page, '/memory/mpmc');
  }

  // Steps agents in this order: run('p1', 'p1', 'c2').
  async run(...agents) {
    for (const a of agents) await this.page.getByTestId(`step-${a}`).click();
  }
  async steps(n) { for (let i = 0; i < n; i += 1) await this.step(); }
  async steal() { await this.page.getByTestId('steal').click(); }
  async dropSequenceNumbers() { await this.page.getByTestId('no-seq').click(); }
  slot(i) { return this.page.getByTestId(`slot-${i}`); }
  async expectSlot(i, state) { await expect(this.slot(i)).toHaveAttribute('data-state', state); }
  cell(key) { return this.page.getByTestId(key); }
}

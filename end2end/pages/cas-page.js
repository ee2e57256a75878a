import { expect } from '@playwright/test';
import { DemoPage } from './demo-page.js';

export class CasPage extends DemoPage {
  constructor(page) {
    super(page, '/memory/cas');
  }

  // Runs threads in this order: run(1, 2, 1) steps T1, T2, T1.
  async run(...threads) {
    for (const t of threads) await this.page.getByTestId(`run-t${t}`).click();
  }
  async inject() { await this.page.getByTestId('inject').click(); }
  async plain() { await this.page.getByTestId('plain').click(); }
  async method(value) { await this.page.getByTestId(`method-${value}`).check(); }
  thread(t) { return this.page.getByTestId(`thread-${t - 1}`); }
  move(n) { return this.page.getByTestId(`step-${n - 1}`); }
  lost() { return this.page.getByTestId('cas-lost'); }
  async expectThread(t, state) { await expect(this.thread(t)).toHaveAttribute('data-state', state); }
}

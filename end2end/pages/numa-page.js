import { expect } from '@playwright/test';
import { DemoPage } from './demo-page.js';

export class NumaPage extends DemoPage {
  constructor(page) {
    super(page, '/cpu/numa');
  }

  shape(key) { return this.page.getByTestId(key); }
  async expectState(key, state) { await expect(this.shape(key)).toHaveAttribute('data-state', String(state)); }
  cost(from, to) { return this.page.getByTestId(`path-${from}-${to}`); }
  async setNumber(id, value) {
    await this.page.getByTestId(id).fill(String(value));
    await this.page.getByTestId(id).blur();
  }

  async policy(value) { await this.page.getByTestId(`policy-${value}`).check(); }
  async sockets(n) { await this.page.getByTestId(`sockets-${n}`).check(); }
  async moveTo(socket) { await this.page.getByTestId(`move-${socket}`).click(); }
  async run16() { await this.page.getByTestId('run-16').click(); }
  async finish() { await this.page.getByTestId('finish').click(); }
  async restart() { await this.page.getByTestId('restart').click(); }
  async breakIt(on = true) { await this.page.getByTestId('break').setChecked(on); }
}

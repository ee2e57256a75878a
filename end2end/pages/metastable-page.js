import { DemoPage } from './demo-page.js';

export class MetastablePage extends DemoPage {
  constructor(page) {
    super(page, '/fabric/metastable');
  }

  cell(i) { return this.page.getByTestId(`cell-${i}`); }

  async run10() { await this.page.getByTestId('run-10').click(); }
  async toEnd() { await this.page.getByTestId('to-end').click(); }
  async restart() { await this.page.getByTestId('restart').click(); }
  async fix(id, on = true) { await this.page.getByTestId(id).setChecked(on); }
  async setTriggerLength(n) { await this.page.getByTestId('trigger-length').fill(String(n)); }
}

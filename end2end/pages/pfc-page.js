import { DemoPage } from './demo-page.js';

export class PfcPage extends DemoPage {
  constructor(page) {
    super(page, '/fabric/pfc');
  }

  link(key) { return this.page.getByTestId(key); }
  node(name) { return this.page.getByTestId(`node-${name}`); }
  flowCell(i, cell) { return this.page.getByTestId(`flow-${i}`).getByTestId(cell); }

  async runShort() { await this.page.getByTestId('run-short').click(); }
  async runLong() { await this.page.getByTestId('run-long').click(); }
  async toEnd() { await this.page.getByTestId('to-end').click(); }
  async restart() { await this.page.getByTestId('restart').click(); }
  async toggle(id, on = true) { await this.page.getByTestId(id).setChecked(on); }
  async shrinkHeadroom() { await this.page.getByTestId('small-headroom').click(); }
}

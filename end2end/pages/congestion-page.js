import { DemoPage } from './demo-page.js';

export class CongestionPage extends DemoPage {
  constructor(page) {
    super(page, '/net/congestion');
    this.chart = page.getByTestId('chart');
  }

  queueCell(i) { return this.page.getByTestId(`queue-${i}`); }
  async press(id) { await this.page.getByTestId(id).click(); }
  async steps(n) { for (let i = 0; i < n; i += 1) await this.step(); }
  async chooseAlgorithm(flow, name) { await this.page.getByTestId(`algorithm-${flow}-${name}`).check(); }
}

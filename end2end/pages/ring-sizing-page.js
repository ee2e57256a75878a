import { DemoPage } from './demo-page.js';

export class RingSizingPage extends DemoPage {
  constructor(page) {
    super(page, '/host/ring-sizing');
  }

  cell(id) { return this.page.getByTestId(id); }

  async finish() { await this.page.getByTestId('finish').click(); }
  async press(id) { await this.page.getByTestId(id).click(); }
  async fill(id, n) {
    await this.page.getByTestId(id).fill(String(n));
    await this.page.getByTestId(id).blur();
  }
}

import { DemoPage } from './demo-page.js';

export class MaglevPage extends DemoPage {
  constructor(page) {
    super(page, '/fabric/maglev');
  }

  async fill() { await this.page.getByTestId('fill').click(); }
  async leave(name) { await this.page.getByTestId(`leave-${name}`).click(); }
  async setNumber(id, n) {
    await this.page.getByTestId(id).fill(String(n));
    await this.page.getByTestId(id).blur();
  }
}

import { DemoPage } from './demo-page.js';

export class ZeroCopyPage extends DemoPage {
  constructor(page) {
    super(page, '/host/zero-copy');
  }

  buffer(i) { return this.page.getByTestId(`buf-${i}`); }

  async sendBatch() { await this.page.getByTestId('send-batch').click(); }
  async setHold(n) { await this.page.getByTestId('hold').fill(String(n)); }
  async toggle(id) { await this.page.getByTestId(id).click(); }
}

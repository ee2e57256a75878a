import { DemoPage } from './demo-page.js';

export class StreamingPage extends DemoPage {
  constructor(page) {
    super(page, '/host/streaming');
  }

  cell(id) { return this.page.getByTestId(id); }

  async deliverBatch() { await this.page.getByTestId('deliver-batch').click(); }
  async notifyEvery() { await this.page.getByTestId('notify-every').click(); }
  async toggle(id) { await this.page.getByTestId(id).click(); }
}

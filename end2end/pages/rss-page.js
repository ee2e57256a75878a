import { DemoPage } from './demo-page.js';

export class RssPage extends DemoPage {
  constructor(page) {
    super(page, '/host/rss');
  }

  entry(i) { return this.page.getByTestId(`entry-${i}`); }
  core(i) { return this.page.getByTestId(`core-${i}`); }

  async toggle(id) { await this.page.getByTestId(id).click(); }
  async receiveRound() { await this.page.getByTestId('round').click(); }
  async setQueues(n) { await this.page.getByTestId('queues').fill(String(n)); }
}

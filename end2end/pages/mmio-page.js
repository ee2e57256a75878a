import { DemoPage } from './demo-page.js';

export class MmioPage extends DemoPage {
  constructor(page) {
    super(page, '/nic/mmio');
  }

  async setIssue(ns) { await this.page.getByTestId('issue-cost').fill(String(ns)); }
  async setRoundTrip(ns) { await this.page.getByTestId('round-trip').fill(String(ns)); }
  async setCount(n) { await this.page.getByTestId('op-count').fill(String(n)); }
  async setWork(ns) { await this.page.getByTestId('work').fill(String(ns)); }
  async runToEnd() { await this.page.getByTestId('run-to-end').click(); }
  async breakIt() { await this.page.getByTestId('hot-read').check(); }
  async fixIt() { await this.page.getByTestId('hot-read').uncheck(); }
}

import { DemoPage } from './demo-page.js';

export class NapiPage extends DemoPage {
  constructor(page) {
    super(page, '/nic/napi');
  }

  async setBurst(n) { await this.page.getByTestId('burst-size').fill(String(n)); }
  async setBudget(n) { await this.page.getByTestId('budget').fill(String(n)); }
  async sendBurst() { await this.page.getByTestId('send-burst').click(); }
  async setDefer(n) { await this.page.getByTestId('defer').fill(String(n)); }
  async setTimeout(us) { await this.page.getByTestId('gro-timeout').fill(String(us)); }
}

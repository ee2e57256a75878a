import { DemoPage } from './demo-page.js';

export class EcmpPage extends DemoPage {
  constructor(page) {
    super(page, '/fabric/ecmp');
  }

  uplink(j) { return this.page.getByTestId(`path-${j}`); }
  row(key) { return this.page.getByTestId(key); }

  async placeAll() { await this.page.getByTestId('place-all').click(); }
  async send() { await this.page.getByTestId('send').click(); }
  async balancer(name) { await this.page.getByTestId(`balancer-${name}`).click(); }
  async setNumber(id, n) {
    await this.page.getByTestId(id).fill(String(n));
    await this.page.getByTestId(id).blur();
  }
}

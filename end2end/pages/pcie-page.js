import { DemoPage } from './demo-page.js';

export class PciePage extends DemoPage {
  constructor(page) {
    super(page, '/host/pcie');
  }

  tlp(i) { return this.page.getByTestId(`tlp-${i}`); }

  async chooseKind(key) { await this.page.getByTestId(`kind-${key}`).check(); }
  async setGeneration(n) { await this.page.getByTestId('generation').selectOption(`gen${n}`); }
  async setLanes(n) { await this.page.getByTestId('lanes').selectOption(`x${n}`); }
  async setMps(n) { await this.page.getByTestId('mps').selectOption(String(n)); }
  async setSize(n) {
    await this.page.getByTestId('size').fill(String(n));
    await this.page.getByTestId('size').blur();
  }
  async setTags(n) { await this.page.getByTestId('tags').fill(String(n)); }
  async sendAll() { await this.page.getByTestId('send-all').click(); }
}

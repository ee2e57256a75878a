import { expect } from '@playwright/test';
import { DemoPage } from './demo-page.js';

export class EncapsulationPage extends DemoPage {
  constructor(page) {
    super(page, '/net/encapsulation');
    this.layout = page.getByTestId('layout');
    this.hex = page.getByTestId('hex');
    this.bits = page.getByTestId('bits');
  }

  // A header field's box in the layout grid, e.g. 'ip-ttl'.
  field(key) { return this.layout.getByTestId(key); }
  byte(n) { return this.hex.getByTestId(`byte-${n}`); }
  bit(i) { return this.bits.getByTestId(`bit-cell-${i}`); }
  hexBytes() { return this.hex.locator('[data-testid^="byte-"]'); }

  async stepTo(stage) {
    for (let i = 0; i < 8; i += 1) {
      if ((await this.figure('stage').textContent()) === stage) return;
      await this.step();
    }
    await this.expectFigure('stage', stage);
  }

  async press(id) { await this.page.getByTestId(id).click(); }
  async setField(id, value) { await this.page.getByTestId(id).fill(String(value)); }
  async send() { await this.page.getByTestId('headers').click(); }
}

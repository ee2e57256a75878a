import { expect } from '@playwright/test';
import { DemoPage } from './demo-page.js';

export class IommuPage extends DemoPage {
  constructor(page) {
    super(page, '/nic/iommu');
    this.lastDma = page.getByTestId('last-dma');
    this.faultLog = page.getByTestId('fault-log');
    this.addr = page.getByTestId('dma-addr');
    // What the page says about the typed address (the form's message).
    this.addrHelp = page.getByTestId('dma-go-msg');
  }

  async preset(addr) { await this.page.getByTestId(`preset-${addr}`).click(); }
  async chooseRead() { await this.page.getByTestId('access-read').check(); }
  async chooseWrite() { await this.page.getByTestId('access-write').check(); }

  async dmaTo(text) {
    await this.addr.fill(text);
    await this.page.getByTestId('dma-go').click();
  }

  async map(iova, vaddr, { read = true, write = true } = {}) {
    await this.page.getByTestId('map-iova').fill(iova);
    await this.page.getByTestId('map-vaddr').fill(vaddr);
    await this.page.getByTestId('map-read').setChecked(read);
    await this.page.getByTestId('map-write').setChecked(write);
    await this.page.getByTestId('map-go').click();
  }

  async unmap(iova) { await this.page.getByTestId(`unmap-${iova}`).click(); }
  async passthrough(on = true) { await this.page.getByTestId('passthrough').setChecked(on); }

  region(key) { return this.page.getByTestId(`region-${key}`); }
  async expectRegion(key, state) { await expect(this.region(key)).toHaveAttribute('data-state', state); }
  entry(iova) { return this.page.getByTestId(`pte-${iova}`); }
  async expectVerdict(verdict, text) {
    await expect(this.lastDma).toHaveAttribute('data-state', verdict);
    if (text) await expect(this.lastDma).toContainText(text);
  }
}

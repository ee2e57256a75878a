import { DemoPage } from './demo-page.js';

export class GpuMemoryPage extends DemoPage {
  constructor(page) {
    super(page, '/gpu/memory');
  }

  thread(t) { return this.page.getByTestId(`thread-${t}`); }
  sector(i) { return this.page.getByTestId(`sector-${i}`); }
  bank(b) { return this.page.getByTestId(`bank-${b}`); }

  async choosePattern(key) { await this.page.getByTestId(`pattern-${key}`).check(); }
  async chooseElement(bytes) { await this.page.getByTestId(`elem-${bytes}`).check(); }
  async placeAll() { await this.page.getByTestId('place-all').click(); }
  async setSharedStride(n) { await this.page.getByTestId('smem-stride').fill(String(n)); }
  async togglePad() { await this.page.getByTestId('pad').click(); }
  budget(name) { return this.page.getByTestId(`budget-${name}`); }
  slot(i) { return this.page.getByTestId(`slot-${i}`); }
  async chooseGpu(cap) { await this.page.getByTestId(`cap-${cap.replace('.', '-')}`).check(); }
  async set(id, value) {
    await this.page.getByTestId(id).fill(String(value));
    await this.page.getByTestId(id).blur();
  }
}

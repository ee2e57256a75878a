import { expect } from '@playwright/test';
import { DemoPage } from './demo-page.js';

export class RingPage extends DemoPage {
  constructor(page) {
    super(page, '/nic/descriptor-ring');
  }

  descriptor(i) { return this.page.getByTestId(`desc-${i}`); }
  async expectDescriptor(i, state) { await expect(this.descriptor(i)).toHaveAttribute('data-state', state); }

  async post() { await this.page.getByTestId('post').click(); }
  async barrier() { await this.page.getByTestId('barrier').click(); }
  async doorbell() { await this.page.getByTestId('doorbell').click(); }
  async reap() { await this.page.getByTestId('reap').click(); }
  async frameArrives() { await this.page.getByTestId('arrive').click(); }
  async chooseTx() { await this.page.getByTestId('mode-tx').check(); }
  async chooseRx() { await this.page.getByTestId('mode-rx').check(); }
  async relaxedDoorbell() { await this.page.getByTestId('relaxed-doorbell').check(); }
  async skipRmb() { await this.page.getByTestId('skip-rmb').check(); }
  // One RX round: post, doorbell, a frame, the NIC's fetch and DMA (write-back not yet).
  async roundUntilDma() {
    await this.post();
    await this.doorbell();
    await this.frameArrives();
    for (let i = 0; i < 2; i += 1) {
      const before = await this.stepCount.textContent();
      await this.step();
      await expect(this.stepCount).not.toHaveText(before);
    }
  }
}

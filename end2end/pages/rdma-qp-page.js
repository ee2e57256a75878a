import { expect } from '@playwright/test';
import { DemoPage } from './demo-page.js';

export class RdmaQpPage extends DemoPage {
  constructor(page) {
    super(page, '/nic/rdma-qp');
    this.engine = page.getByTestId('nic-engine');
    this.polled = page.getByTestId('polled');
    this.qpState = page.getByTestId('qp-state');
  }

  async postSend() { await this.page.getByTestId('post-send').click(); }
  async postOutside() { await this.page.getByTestId('post-outside').click(); }
  async postBadKey() { await this.page.getByTestId('post-badkey').click(); }
  async postBadRkey() { await this.page.getByTestId('post-badrkey').click(); }
  async postWrite() { await this.page.getByTestId('post-write').click(); }
  async postRead() { await this.page.getByTestId('post-read').click(); }
  async peerRecv() { await this.page.getByTestId('peer-recv').click(); }
  async signaled(on = true) { await this.page.getByTestId('signaled').setChecked(on); }
  async poll() { await this.page.getByTestId('poll-cq').click(); }
  async socketSend() { await this.page.getByTestId('socket-send').click(); }
  async resetQp() { await this.page.getByTestId('reset-qp').click(); }

  // Two unsignaled RDMA WRITEs run to completion: done, no CQE, slots held.
  async twoSilentWrites() {
    await this.signaled(false);
    await this.postWrite();
    await this.postWrite();
    await this.steps(6);
    await this.expectFigure('silent', 2);
  }

  async steps(n) {
    for (let i = 0; i < n; i += 1) {
      const before = await this.stepCount.textContent();
      await this.step();
      await expect(this.stepCount).not.toHaveText(before);
    }
  }

  async expectSq(i, state) { await expect(this.page.getByTestId(`sq-${i}`)).toHaveAttribute('data-state', state); }
  async expectCq(i, state) { await expect(this.page.getByTestId(`cq-${i}`)).toHaveAttribute('data-state', state); }
  async expectCell(testid, value) { await expect(this.page.getByTestId(testid)).toHaveText(String(value)); }
}

import { expect } from '@playwright/test';
import { DemoPage } from './demo-page.js';

export class RcuPage extends DemoPage {
  constructor(page) {
    super(page, '/memory/rcu');
  }

  async steps(n) { for (let i = 0; i < n; i += 1) await this.step(); }
  // A reader CPU (numbered from 1) calls: lock, deref, use or unlock.
  async cpu(n, ...calls) {
    for (const c of calls) await this.page.getByTestId(`${c}-${n}`).click();
  }
  async publish() { await this.page.getByTestId('publish').click(); }
  async synchronize() { await this.page.getByTestId('synchronize').click(); }
  async callRcu() { await this.page.getByTestId('call-rcu').click(); }
  async freeNow() { await this.page.getByTestId('free-now').click(); }
  version(letter) { return this.page.getByTestId(`node-${'abcdef'.indexOf(letter)}`); }
  async expectVersion(letter, state) { await expect(this.version(letter)).toHaveAttribute('data-state', state); }
  reader(n) { return this.page.getByTestId(`reader-${n - 1}`); }
}

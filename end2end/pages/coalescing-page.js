import { DemoPage } from './demo-page.js';

export class CoalescingPage extends DemoPage {
  constructor(page) {
    super(page, '/nic/coalescing');
  }

  async setRate(k) { await this.page.getByTestId(`rate-${k}k`).check(); }
  async setUsecs(n) { await this.page.getByTestId('rx-usecs').fill(String(n)); }
  async setFrames(n) { await this.page.getByTestId('rx-frames').fill(String(n)); }
  async adaptive(on = true) { await this.page.getByTestId('adaptive').setChecked(on); }
  async runToEnd() { await this.page.getByTestId('run-to-end').click(); }
  async framesOnly() { await this.page.getByTestId('frames-only').click(); }
  cell(testid) { return this.page.getByTestId(testid); }
}

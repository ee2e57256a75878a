import { expect } from '@playwright/test';
import { DemoPage } from './demo-page.js';

export class MesiPage extends DemoPage {
  constructor(page) {
    super(page, '/cpu/mesi');
    this.bus = page.getByTestId('bus-line');
    this.sequence = page.getByTestId('sequence');
  }

  async read(core) { await this.page.getByTestId(`read-${core}`).click(); }
  async write(core) { await this.page.getByTestId(`write-${core}`).click(); }
  async evict(core) { await this.page.getByTestId(`evict-${core}`).click(); }
  async protocol(name) { await this.page.getByTestId(`protocol-${name}`).check(); }
  async invalidation(on) { await this.page.getByTestId('invalidation').setChecked(on); }

  tile(core, line = 0) { return this.page.getByTestId(`core-${core}-line-${line}`); }
  async expectStates(...letters) {
    for (const [core, letter] of letters.entries()) {
      await expect(this.tile(core)).toHaveAttribute('data-state', letter);
    }
  }
  traffic(protocol, what) { return this.page.getByTestId(`${protocol}-${what}`); }
}

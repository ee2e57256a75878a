import { expect } from '@playwright/test';
import { DemoPage } from './demo-page.js';

// Shared by both stage-pipeline demos: the waterfall, its rows and the cost editor.
export class PathPage extends DemoPage {
  row(key) { return this.page.getByTestId(`row-${key}`); }
  async expectRowState(key, state) { await expect(this.row(key)).toHaveAttribute('data-state', state); }
  offLabel(key) { return this.page.getByTestId(`off-${key}`); }
  get total() { return this.page.getByTestId('total'); }
  get clock() { return this.page.getByTestId('clock'); }
  get saving() { return this.page.getByTestId('saving'); }
  async newPacket() { await this.page.getByTestId('new-packet').click(); }
  async pickStage(label) { await this.page.getByTestId('stage-pick').selectOption({ label }); }
  async setStageCost(ns) { await this.page.getByTestId('stage-cost').fill(String(ns)); }
  async restoreCosts() { await this.page.getByTestId('restore-costs').click(); }
}

export class SendPathPage extends PathPage {
  constructor(page) {
    super(page, '/nic/send-path');
  }

  toggle(name) { return this.page.getByTestId(`use-${name}`); }
  async bypass(on = true) { await this.toggle('bypass').setChecked(on); }
  async txPush(on = true) { await this.toggle('tx-push').setChecked(on); }
  async ctpio(on = true) { await this.toggle('ctpio').setChecked(on); }
}

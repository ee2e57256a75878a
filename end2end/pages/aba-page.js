import { expect } from '@playwright/test';
import { DemoPage } from './demo-page.js';

export class AbaPage extends DemoPage {
  constructor(page) {
    super(page, '/memory/aba');
  }

  async steps(n) { for (let i = 0; i < n; i += 1) await this.step(); }
  async pop(t) { await this.page.getByTestId(`pop-t${t}`).click(); }
  async push(t, node) { await this.page.getByTestId(`push-t${t}-${node}`).click(); }
  async stepThread(t) { await this.page.getByTestId(`step-t${t}`).click(); }
  async tagged() { await this.page.getByTestId('tagged').click(); }
  async hazard() { await this.page.getByTestId('hazard').click(); }
  node(letter) { return this.page.getByTestId(`node-${'abcd'.indexOf(letter)}`); }
  async expectNode(letter, state) { await expect(this.node(letter)).toHaveAttribute('data-state', state); }
  damage() { return this.page.getByTestId('aba-damage'); }
}

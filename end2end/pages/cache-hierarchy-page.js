import { expect } from '@playwright/test';
import { DemoPage } from './demo-page.js';

export class CacheHierarchyPage extends DemoPage {
  constructor(page) {
    super(page, '/cpu/cache-hierarchy');
    this.addr = page.getByTestId('addr');
  }

  async access(text) {
    await this.addr.fill(text);
    await this.page.getByTestId('access').click();
  }
  async chooseStore() { await this.page.getByTestId('kind-store').check(); }
  async chooseLoad() { await this.page.getByTestId('kind-load').check(); }
  async clickLine(base) { await this.page.getByTestId(`line-${base}`).click(); }
  async thrash() { await this.page.getByTestId('thrash').click(); }
  async doubleWays() { await this.page.getByTestId('double-ways').click(); }
  async l1Policy(key) { await this.page.getByTestId(`l1-policy-${key}`).check(); }
  async steps(n) { for (let i = 0; i < n; i += 1) await this.step(); }

  level(key) { return this.page.getByTestId(key); }
  way(level, set, way) { return this.page.getByTestId(`${level}-set-${set}-way-${way}`); }
  async expectLevel(key, state) { await expect(this.level(key)).toHaveAttribute('data-state', state); }
  async expectWay(level, set, way, state) { await expect(this.way(level, set, way)).toHaveAttribute('data-state', state); }
}

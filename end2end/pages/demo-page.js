// Page object for what every demo page shares: control bar, narration,
// status line, share panel.
import { expect } from '@playwright/test';

export class DemoPage {
  constructor(page, path) {
    this.page = page;
    this.path = path;
    this.demo = page.getByTestId('demo');
    this.latest = page.getByTestId('narration-latest');
    this.stepCount = page.getByTestId('step-count');
  }

  async open(query = '') {
    await this.page.goto(this.path + query);
    await expect(this.demo).toBeVisible();
  }

  figure(key) {
    return this.page.getByTestId(`fig-${key}`).locator('dd');
  }

  async expectFigure(key, value) {
    await expect(this.figure(key)).toHaveText(String(value));
  }

  async expectStep(n) {
    await expect(this.stepCount).toHaveText(`step ${n}`);
  }

  async step() { await this.page.getByTestId('step').click(); }
  async back() { await this.page.getByTestId('back').click(); }
  async reset() { await this.page.getByTestId('reset').click(); }
  async play() { await this.page.getByTestId('play').click(); }

  async copyLink() {
    await this.page.getByTestId('copy-link').click();
    const input = this.page.getByTestId('share-url');
    await expect(input).toHaveValue(/\?s=v1\./);
    return input.inputValue();
  }
}

import { expect } from '@playwright/test';
import { DemoPage } from './demo-page.js';

// The journey: one message through every layer (/journey).
export class JourneyPage extends DemoPage {
  constructor(page) {
    super(page, '/journey');
    this.picked = page.getByTestId('picked');
    this.drill = page.getByTestId('picked-demo').locator('a');
    this.tried = page.getByTestId('tried');
  }

  technique(id) { return this.page.getByTestId(`use-${id}`); }
  async use(id, on = true) { await this.technique(id).setChecked(on); }
  stage(key) { return this.page.getByTestId(`stage-${key}`); }
  async pick(key) { await this.stage(key).click(); }

  async expectTotal(text) { await this.expectFigure('total', text); }
  async expectDominant(text) { await this.expectFigure('dominant', text); }

  /** A stage's row's own link to its demo ("from /nic/…"). */
  rowLink(key) { return this.page.getByTestId(`stage-${key}-demo`).locator('xpath=..'); }

  /** Opens a stage's demo through `link` (the picked stage's, unless
   * given), as the link has it; returns its URL. */
  async drillDown(path, link = this.drill) {
    await expect(link).toHaveAttribute('href', new RegExp(`^${path}\\?s=v1\\.[^&]+&from=/journey&from_s=v1\\.`));
    await link.click();
    await this.page.waitForURL((url) => url.pathname === path);
    await expect(this.demo).toBeVisible();
    return new URL(this.page.url());
  }

  /** From a stage's demo, back to the journey. */
  async comeBack() {
    const back = this.page.getByTestId('way-back');
    await expect(back).toHaveText('← Back to One message, end to end');
    await back.click();
    await this.page.waitForURL((url) => url.pathname === '/journey');
    await expect(this.demo).toHaveAttribute('data-demo', 'journey');
  }
}

import { expect } from '@playwright/test';

export class HomePage {
  constructor(page) {
    this.page = page;
    this.cards = page.locator('a[data-testid^="card-"]');
  }

  async open() {
    await this.page.goto('/');
    await expect(this.cards.first()).toBeVisible();
  }

  async demoPaths() {
    return this.cards.evaluateAll((links) => links.map((a) => new URL(a.href).pathname));
  }
}

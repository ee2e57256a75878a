import { expect } from '@playwright/test';
import { DemoPage } from './demo-page.js';

export class HandshakePage extends DemoPage {
  constructor(page) {
    super(page, '/net/handshake');
    this.diagram = page.getByTestId('sequence');
  }

  segment(id) { return this.diagram.getByTestId(`seg-${id}`); }
  async expectSegment(id, state) { await expect(this.segment(id)).toHaveAttribute('data-state', state); }
  async dropSegment(id) { await this.segment(id).click(); }
  async expectStates(client, server) {
    await this.expectFigure('client', client);
    await this.expectFigure('server', server);
  }

  pill(side, state) { return this.page.getByTestId(`${side}-${state}`); }
  async press(id) { await this.page.getByTestId(id).click(); }
}

import { expect } from '@playwright/test';
import { DemoPage } from './demo-page.js';

export class ReorderingPage extends DemoPage {
  constructor(page) {
    super(page, '/memory/reordering');
    this.graph = page.getByTestId('graph');
    this.explain = page.getByTestId('explain');
    this.editor = page.getByTestId('litmus-text');
    // What the page says about the typed test (the form's message).
    this.editorMsg = page.getByTestId('load-test-msg');
  }

  async chooseTest(name) { await this.page.getByTestId('test').selectOption(name); }
  async chooseModel(label) { await this.page.getByTestId(`model-${label.toLowerCase()}`).check(); }
  async run(t) { await this.page.getByTestId(`run-${t}`).click(); }
  async drain(t) { await this.page.getByTestId(`drain-${t}`).click(); }
  async restart() { await this.page.getByTestId('restart').click(); }
  async strip() { await this.page.getByTestId('strip').click(); }
  async weaken() { await this.page.getByTestId('weaken').click(); }

  async load(text) {
    await this.editor.fill(text);
    await this.page.getByTestId('load-test').click();
  }

  verdict(model) { return this.page.getByTestId(`verdict-${model.toLowerCase()}`); }
  async expectVerdict(model, word) { await expect(this.verdict(model)).toHaveAttribute('data-state', word); }

  code(thread, index) { return this.page.getByTestId(`code-${thread}-${index}`); }

  // The outcome table's row whose first cell reads `text` (e.g. 'r1=1, r2=0').
  outcome(text) {
    return this.page.getByTestId('outcomes').locator('tbody tr').filter({
      has: this.page.getByRole('button', { name: new RegExp(`^(▶ )?${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) }),
    });
  }
  async expectOutcome(text, status) { await expect(this.outcome(text)).toHaveAttribute('data-state', status); }
  async selectOutcome(text) { await this.outcome(text).getByRole('button').click(); }
}

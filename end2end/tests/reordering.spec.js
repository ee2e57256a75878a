import { test, expect } from './fixtures.js';
import AxeBuilder from '@axe-core/playwright';
import { ReorderingPage } from '../pages/reordering-page.js';

async function expectNoSeriousViolations(page) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => ['serious', 'critical'].includes(v.impact));
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
}

test('MP: TSO forbids the stale read by the cycle po ; rfe ; po ; fre, ARMv8 allows it', async ({ page }) => {
  const lab = new ReorderingPage(page);
  await lab.open();
  await lab.expectFigure('test', 'MP');
  await lab.expectFigure('model', 'TSO');
  await lab.expectFigure('verdict', 'forbidden');
  await lab.expectFigure('allowed', '3 of 4');
  await expect(lab.code(0, 0)).toHaveText('▶ MOV [x], 1');
  await expect(lab.code(1, 1)).toHaveText('MOV r2, [x]');
  await lab.expectVerdict('TSO', 'forbidden');
  await expect(lab.verdict('TSO')).toContainText('po ; rfe ; po ; fre');
  await lab.expectVerdict('SC', 'forbidden');
  await lab.expectVerdict('ARMv8', 'allowed');
  await lab.expectVerdict('RC11', 'allowed');
  await lab.expectOutcome('r1=1, r2=0', 'forbidden');
  // The graph shows the outcome the exists condition asks about, cycle drawn.
  await expect(lab.graph).toHaveAttribute('aria-label', 'Execution of r1=1, r2=0 under TSO: forbidden');
  await expect(lab.graph.locator('[data-state$=" cycle"]')).toHaveCount(4);
  await expect(lab.explain).toContainText('TSO forbids r1=1, r2=0: every execution ending this way has a cycle like po ; rfe ; po ; fre');
  await expect(lab.explain).toContainText('d: R x=0 → a: W x=1: fre (read a value that is later overwritten)');

  await lab.chooseModel('ARMv8');
  await lab.expectFigure('verdict', 'allowed');
  await lab.expectFigure('allowed', '4 of 4');
  await expect(lab.latest).toHaveText('ARMv8 is judged axiomatically; the scheduler steps SC and TSO only.');
  await expect(page.getByTestId('narration-history')).toContainText('ARMv8 allows r1=1 /\\ r2=0');
  await expect(lab.code(0, 1)).toHaveText('STR #1, [y]');
  await lab.expectOutcome('r1=1, r2=0', 'allowed');
  await expect(lab.graph).toHaveAttribute('aria-label', 'Execution of r1=1, r2=0 under ARMv8: allowed');
  await expect(lab.graph.locator('[data-state$=" cycle"]')).toHaveCount(0);
  // Each relation has its own dash as well as its own colour, and its legend
  // key carries the same dash class as its edges.
  const legend = lab.graph.locator('xpath=..').locator('figcaption.legend');
  const dashes = { po: 'solid', rf: 'dashed', co: 'dotted', fr: 'dashdot' };
  for (const [rel, dash] of Object.entries(dashes)) {
    const cls = new RegExp(`(^|\\s)${dash}(\\s|$)`);
    await expect(legend.locator('.key', { hasText: `${rel}: ` })).toHaveClass(cls);
    if (rel !== 'co') await expect(lab.graph.locator(`[data-state="${rel}"]`).first()).toHaveClass(cls);
  }

  await lab.chooseModel('RC11');
  await expect(lab.code(0, 0)).toHaveText('store(x, 1, relaxed)');
  await lab.selectOutcome('r1=0, r2=0');
  await expect(lab.latest).toContainText('RC11 allows r1=0, r2=0');
  await expect(lab.graph).toHaveAttribute('aria-label', 'Execution of r1=0, r2=0 under RC11: allowed');
});

test('you are the scheduler: SB reaches r1=0, r2=0 under TSO and never under SC', async ({ page }) => {
  const lab = new ReorderingPage(page);
  await lab.open();
  await lab.chooseTest('SB');
  await lab.expectFigure('test', 'SB');
  await lab.expectVerdict('TSO', 'allowed');
  await lab.run(0);
  await expect(lab.latest).toHaveText("T0 runs MOV [x], 1: x=1 waits in T0's store buffer (1 pending), invisible to the other threads.");
  await expect(page.getByTestId('buffer-0')).toHaveAttribute('data-state', '1 pending');
  await lab.run(0);
  await expect(lab.latest).toHaveText('T0 runs MOV r1, [y]: it reads y=0 from memory.');
  await expect(lab.code(0, 1)).toHaveText('✓ MOV r1, [y]');
  await lab.run(1);
  await lab.run(1);
  await expect(page.getByTestId('mem-x')).toHaveAttribute('data-state', '0');
  await lab.drain(0);
  await expect(page.getByTestId('mem-x')).toHaveAttribute('data-state', '1');
  await lab.drain(1);
  await expect(lab.latest).toContainText('The run is over: r1=0, r2=0. TSO allows it');
  await lab.expectFigure('reached', '1 of 4');
  await expect(lab.outcome('r1=0, r2=0')).toContainText('reached');

  await lab.chooseModel('SC');
  await lab.expectOutcome('r1=0, r2=0', 'forbidden');
  await expect(lab.verdict('SC')).toContainText('po ; fre ; po ; fre');
  await expect(page.getByTestId('drain-0')).toHaveCount(0);
  await lab.run(0);
  await expect(lab.latest).toHaveText('T0 runs W x 1: memory now holds x=1.');
  await lab.run(0);
  await lab.run(1);
  await lab.run(1);
  await expect(lab.latest).toContainText('The run is over: r1=0, r2=1. SC allows it');
  await lab.restart();
  await lab.expectFigure('position', 'T0 0/2, T1 0/2');
  // Play schedules the lowest runnable thread first.
  await lab.step();
  await lab.step();
  await lab.step();
  await lab.step();
  await expect(lab.latest).toContainText('The run is over: r1=0, r2=1.');
  await lab.expectFigure('reached', '1 of 3');
});

test('an instruction that must wait is refused with the reason', async ({ page }) => {
  const lab = new ReorderingPage(page);
  await lab.open();
  await lab.chooseTest('SB+mfences');
  await expect(lab.code(0, 1)).toHaveText('MFENCE');
  await lab.run(0);
  await expect(page.getByTestId('run-0')).toHaveClass(/refused/);
  await lab.run(0);
  await expect(lab.latest).toHaveAttribute('data-tone', 'refused');
  await expect(lab.latest).toContainText("T0's next instruction waits for an empty store buffer: drain T0's buffer first.");
  await lab.drain(1);
  await expect(lab.latest).toContainText('T1 has no buffered store to drain.');
  await lab.expectStep(2);
  await lab.drain(0);
  await lab.run(0);
  await expect(lab.latest).toHaveText('T0 runs MFENCE: its store buffer is empty, so the fence passes.');

  await lab.chooseModel('ARMv8');
  await lab.step();
  await expect(lab.latest).toHaveAttribute('data-tone', 'refused');
  await expect(lab.latest).toContainText('switch the model to SC or TSO');
});

test('break it: strip the release and acquire, then weaken the model', async ({ page }) => {
  const lab = new ReorderingPage(page);
  await lab.open();
  await lab.chooseTest('MP+rel+acq');
  await lab.chooseModel('ARMv8');
  await expect(lab.code(0, 1)).toHaveText('STLR #1, [y]');
  await expect(lab.code(1, 0)).toHaveText('LDAR r1, [y]');
  await lab.expectFigure('verdict', 'forbidden');
  await expect(lab.verdict('ARMv8')).toContainText('bob');
  await expectNoSeriousViolations(page);

  await lab.strip();
  await lab.expectFigure('test', 'MP');
  await expect(page.getByTestId('test')).toHaveValue('MP');
  await expect(lab.code(0, 1)).toHaveText('STR #1, [y]');
  await lab.expectFigure('verdict', 'allowed');
  await expect(lab.explain).toContainText('ARMv8 allows r1=1, r2=0');
  await expect(page.getByTestId('strip')).toHaveCount(0);

  await lab.chooseModel('TSO');
  await lab.expectFigure('verdict', 'forbidden');
  await lab.weaken();
  await lab.expectFigure('model', 'ARMv8');
  await lab.expectFigure('verdict', 'allowed');
  await expectNoSeriousViolations(page);
});

test('a typed test is checked as it is typed, errors named by line and column', async ({ page }) => {
  const lab = new ReorderingPage(page);
  await lab.open();
  await lab.editor.fill('thread W x 1\nthread Q\nexists x=1');
  await expect(lab.editorMsg).toContainText('Line 2, column 8: `Q` is not an operation: use W, R or F.');
  // The line it names is quoted under the message, a caret under column 8.
  await expect(lab.editorMsg).toContainText('2 │ thread Q');
  expect(await lab.editorMsg.textContent()).toMatch(/\n {2}│ {8}\^$/);
  await expect(lab.editor).toHaveAttribute('aria-invalid', 'true');
  await page.getByTestId('load-test').click();
  await expect(lab.latest).toHaveAttribute('data-tone', 'refused');
  await lab.expectStep(0);

  await lab.load('name mine\nthread W x 1; R y r1\nthread W y 1; R x r2\nthread R x r3; R y r4\nexists r1=0 /\\ r2=0\n');
  await lab.expectFigure('test', 'mine');
  await expect(page.getByTestId('test')).toHaveValue('typed');
  await expect(lab.code(2, 1)).toHaveText('MOV r4, [y]');
  await lab.expectFigure('verdict', 'allowed');
  await lab.expectVerdict('SC', 'forbidden');
  await expect(lab.latest).toContainText('Loaded mine:');
});

test('a copied link reopens the same test, model and run', async ({ page, browser }) => {
  const lab = new ReorderingPage(page);
  await lab.open();
  await lab.load('name mine\nthread W x 1; W y 1\nthread R y r1; R x r2\nexists r1=1 /\\ r2=0\n');
  await lab.chooseModel('SC');
  await lab.run(0);
  const link = await lab.copyLink();
  const fresh = await browser.newContext();
  const other = new ReorderingPage(await fresh.newPage());
  await other.page.goto(link);
  await other.expectStep(3);
  await other.expectFigure('test', 'mine');
  await other.expectFigure('model', 'SC');
  await other.expectFigure('position', 'T0 1/2, T1 0/2');
  await expect(other.code(0, 0)).toHaveText('✓ W x 1');
  await expect(other.page.getByTestId('link-notice')).toHaveCount(0);
  await fresh.close();
});

test('the explorer works from the keyboard', async ({ page }) => {
  const lab = new ReorderingPage(page);
  await lab.open();
  const tso = page.getByTestId('model-tso');
  await tso.focus();
  await page.keyboard.press('ArrowRight');
  await lab.expectFigure('model', 'ARMv8');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await lab.expectFigure('model', 'SC');
  const row = lab.outcome('r1=0, r2=1').getByRole('button');
  await row.focus();
  await page.keyboard.press('Enter');
  await expect(lab.graph).toHaveAttribute('aria-label', 'Execution of r1=0, r2=1 under SC: allowed');
  await page.getByTestId('run-1').focus();
  await page.keyboard.press('Enter');
  await lab.expectFigure('position', 'T0 0/2, T1 1/2');
  const select = page.getByTestId('test');
  await select.focus();
  await page.keyboard.press('ArrowDown');
  await lab.expectFigure('test', 'MP+rel+acq');
});

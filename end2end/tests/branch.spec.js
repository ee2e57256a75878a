import { test, expect } from './fixtures.js';
import { expectNoSeriousAxe } from './axe.js';
import { BranchPage } from '../pages/branch-page.js';

test('sorted data costs a 2-bit counter two mispredicts; shuffled data costs half the branches', async ({ page }) => {
  const b = new BranchPage(page);
  await b.open();
  await b.expectFigure('iteration', '0/256');
  await b.expectState('current', 'none');

  // a[0] = 1 is not taken; the cold entry 6 (weakly not-taken) agrees and sinks to 0.
  await b.step();
  await b.expectState('current', 'hit');
  await expect(b.latest).toContainText('a[0] = 1 < 128: not taken. Predicted not taken from entry 6 (1 → 0).');
  await b.expectState('state-0', 'current');
  await b.expectState('pht-6', '0');
  await b.expectState('br-0', 'hit');

  await b.finish();
  await b.expectFigure('mispredicts', 2);
  await b.expectFigure('rate', '0.8 %');
  await b.expectFigure('cycles', 542);
  await b.expectFigure('ipc', '2.83');

  await b.data('shuffled');
  await b.expectFigure('iteration', '0/256');
  await b.finish();
  await b.expectFigure('mispredicts', 133);
  await b.expectFigure('rate', '52.0 %');
  await b.expectFigure('ipc', '0.61');
  // The same shuffled bytes under every predictor, from cold.
  await b.expectState('cmp-0', 138);
  await b.expectState('cmp-1', 154);
  await b.expectState('cmp-2', 133);
  await b.expectState('cmp-3', 126);
});

test('break it: T T N beats the 2-bit counter, and gshare learns it', async ({ page }) => {
  const b = new BranchPage(page);
  await b.open();
  await b.breakIt();
  await expect(b.latest).toContainText('T T N repeating under a 2-bit counter');
  await expect(page.getByTestId('data-pattern')).toBeChecked();
  await b.run16();
  await b.expectFigure('mispredicts', 6);
  await b.expectState('cmp-2', 86);
  await b.expectState('cmp-3', 4);
  await b.finish();
  await b.expectFigure('mispredicts', 86);
  await b.expectFigure('rate', '33.6 %');

  await b.predictor('gshare');
  await b.expectFigure('predictor', 'gshare');
  await b.finish();
  await b.expectFigure('mispredicts', 4);
  await b.expectFigure('rate', '1.6 %');
  await b.expectFigure('ghr', 'TTNT');
  await b.expectState('ghr', 'TTNT');
  await b.expectState('br-255', 'hit');
});

test('impossible requests are refused with the reason', async ({ page }) => {
  const b = new BranchPage(page);
  await b.open();
  await b.finish();
  await expect(page.getByTestId('run-16')).toHaveClass(/refused/);
  await b.run16();
  await expect(b.latest).toHaveAttribute('data-tone', 'refused');
  await expect(b.latest).toContainText('All 256 iterations have run.');
  await b.expectFigure('iteration', '256/256');

  await b.pattern('TXN');
  await expect(b.patternMsg).toContainText('T (taken) and N (not taken) only');
  await b.pattern('TTTN');
  await expect(page.getByTestId('data-pattern')).toBeChecked();
  await b.expectFigure('iteration', '0/256');
});

test('a share link reopens gshare mid-run in a fresh page', async ({ page, browser }) => {
  const b = new BranchPage(page);
  await b.open();
  await b.breakIt();
  await b.predictor('gshare');
  await b.run16();
  await b.run16();
  await b.expectFigure('iteration', '32/256');
  const link = await b.copyLink();

  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(link);
  const again = new BranchPage(other);
  await again.expectFigure('iteration', '32/256');
  await again.expectFigure('predictor', 'gshare');
  await again.expectFigure('mispredicts', 4);
  await again.expectFigure('ghr', 'TNTT');
  await again.expectState('pht-0', '3');
  await again.expectStep(4);
  await expect(other.getByTestId('link-notice')).toHaveCount(0);
  await fresh.close();
});

test('its controls work from the keyboard', async ({ page }) => {
  const b = new BranchPage(page);
  await b.open();
  await page.getByTestId('predictor-two-bit').focus();
  await page.keyboard.press('ArrowRight');
  await b.expectFigure('predictor', 'gshare');
  await page.getByTestId('penalty').focus();
  await page.keyboard.press('ArrowRight');
  await b.expectFigure('penalty', '16 cycles');
  await page.getByTestId('run-16').focus();
  await page.keyboard.press('Enter');
  await b.expectFigure('iteration', '16/256');
  await page.getByTestId('pattern-text').fill('TTTN');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('data-pattern')).toBeChecked();
});

test('axe finds no serious violation, before and after breaking it', async ({ page }) => {
  const b = new BranchPage(page);
  await b.open();
  await b.step();
  await expectNoSeriousAxe(page);
  await b.breakIt();
  await b.run16();
  await b.expectFigure('mispredicts', 6);
  await expectNoSeriousAxe(page);
});

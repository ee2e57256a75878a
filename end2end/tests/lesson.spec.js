import { test, expect } from './fixtures.js';
import AxeBuilder from '@axe-core/playwright';
import { tabTo, press, openLesson, reply, wholeLesson, mesiTasks } from './lessons.js';

// The lesson panel (src/shell/lesson.rs), driven by keyboard only
// (tests/lessons.js walks it).

const serious = (results) => results.violations
  .filter((v) => ['serious', 'critical'].includes(v.impact))
  .map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`);

test('nic: the MMIO lesson, whole, by keyboard', async ({ page }) => {
  await wholeLesson(page, '/nic/mmio', {
    4: () => press(page, 'hot-read', 'Space'),
  });
});

test('memory: the false-sharing lesson, whole, by keyboard', async ({ page }) => {
  await wholeLesson(page, '/memory/false-sharing', {
    5: async () => {
      await tabTo(page, /^layout-/);
      await page.keyboard.press('ArrowDown');
      await expect(page.getByTestId('layout-padded')).toBeChecked();
      await press(page, 'step');
    },
  });
});

test('cpu: the MESI lesson, whole, by keyboard', async ({ page }) => {
  await wholeLesson(page, '/cpu/mesi', mesiTasks(page));
});

test('net: the congestion lesson, whole, by keyboard', async ({ page }) => {
  await wholeLesson(page, '/net/congestion', {
    5: async () => {
      await press(page, 'step');
      const task = page.getByTestId('lesson-task');
      for (let i = 0; i < 60 && (await task.getAttribute('data-done')) !== 'true'; i += 1) {
        await page.keyboard.press('Enter');
      }
    },
  });
});

test('progress survives a reload, shows on the home page, and can be forgotten', async ({ page }) => {
  await openLesson(page, '/cpu/mesi');
  await reply(page, 'guess');
  await expect(page.getByTestId('lesson-progress')).toContainText('1 of 5 stops done');
  await page.reload();
  await expect(page.getByTestId('step')).toBeVisible();
  await press(page, 'lesson-open');
  await expect(page.getByTestId('lesson')).toHaveAttribute('data-stop', '2');
  await expect(page.getByTestId('lesson-progress')).toContainText('1 of 5 stops done');
  await page.goto('/');
  await expect(page.getByTestId('progress-mesi')).toHaveText('1/5 stops');
  await expect(page.getByTestId('start-here-descriptor-ring')).toBeVisible();
  await page.goto('/cpu/mesi');
  await expect(page.getByTestId('step')).toBeVisible();
  await press(page, 'lesson-open');
  await press(page, 'lesson-forget');
  await expect(page.getByTestId('lesson-progress')).toContainText('0 of 5 stops done');
  await page.reload();
  await expect(page.getByTestId('step')).toBeVisible();
  await press(page, 'lesson-open');
  await expect(page.getByTestId('lesson')).toHaveAttribute('data-stop', '1');
});

test('a copied link opens the lesson at the same stop; a bad stop says so', async ({ page }) => {
  await openLesson(page, '/cpu/mesi');
  await press(page, 'lesson-next');
  await press(page, 'lesson-next');
  await expect(page.getByTestId('lesson')).toHaveAttribute('data-stop', '3');
  await press(page, 'copy-link');
  const url = await page.getByTestId('share-url').inputValue();
  expect(url).toContain('lesson=3');
  await page.goto(url);
  await expect(page.getByTestId('lesson')).toHaveAttribute('data-stop', '3');
  await expect(page.getByTestId('lesson-title')).toContainText('A dirty line is read');
  await expect(page.getByTestId('link-notice')).toHaveCount(0);
  for (const bad of ['99', '0', 'x', '%3Cb%3E']) {
    await page.goto(`/cpu/mesi?lesson=${bad}`);
    await expect(page.getByTestId('link-notice')).toContainText('could not be opened');
    await expect(page.getByTestId('lesson')).toHaveCount(0);
  }
  // A bad state and a bad stop: both are said.
  await page.goto('/cpu/mesi?s=not-a-scenario&lesson=99');
  await expect(page.getByTestId('link-notice')).toContainText('could not be restored');
  await expect(page.getByTestId('link-notice')).toContainText('could not be opened');
});

test('class mode keeps the answer until the presenter presses Reveal', async ({ page }) => {
  await page.goto('/cpu/mesi?class=1&lesson=1');
  const lesson = page.getByTestId('lesson');
  await expect(lesson).toHaveClass(/class-mode/);
  await expect(page.getByTestId('lesson-question')).toBeVisible();
  await expect(page.getByTestId('lesson-verdict')).toHaveCount(0);
  await expect(page.getByTestId('lesson-check')).toHaveCount(0);
  await press(page, 'lesson-reveal');
  await expect(page.getByTestId('lesson-verdict')).toContainText('The right answer: E.');
});

test('axe finds no serious violation at a lesson stop, before and after the reveal', async ({ page }) => {
  await page.goto('/cpu/mesi?lesson=1');
  await expect(page.getByTestId('lesson')).toBeVisible();
  expect(serious(await new AxeBuilder({ page }).analyze())).toEqual([]);
  await reply(page, 'guess');
  expect(serious(await new AxeBuilder({ page }).analyze())).toEqual([]);
});

test('the panel is readable at 390 px', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/nic/mmio?lesson=1');
  const lesson = page.getByTestId('lesson');
  await expect(lesson).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  const box = await lesson.boundingBox();
  expect(box.width).toBeLessThanOrEqual(390);
});

// Where the stop stands: beside the picture on a laptop or projector (the
// picture stays in sight), above it on a phone.
for (const [width, height, where] of [[1024, 768, 'beside'], [1920, 1080, 'beside'], [390, 844, 'above']]) {
  test(`at ${width}×${height} a lesson stop stands ${where} the picture`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await page.goto('/cpu/mesi?lesson=2');
    const panel = page.getByTestId('lesson');
    await expect(panel).toBeVisible();
    const box = await panel.boundingBox();
    const picture = await page.getByTestId('visual').boundingBox();
    if (where === 'beside') {
      expect(box.x).toBeGreaterThanOrEqual(picture.x + picture.width);
      expect(picture.y).toBeLessThan(height);
      expect(box.y).toBeLessThan(height);
    } else {
      expect(box.y + box.height).toBeLessThanOrEqual(picture.y);
    }
  });
}

test('in class mode the large question stays inside its box', async ({ page }) => {
  await page.setViewportSize({ width: 1024, height: 768 });
  await page.goto('/memory/reordering?lesson=3&class=1');
  const question = page.getByTestId('lesson-question');
  await expect(question).toBeVisible();
  const box = await question.boundingBox();
  const legend = await question.locator('legend').boundingBox();
  // A legend drawn across the box's top edge starts where the box does.
  expect(legend.y).toBeGreaterThan(box.y);
  expect(legend.x + legend.width).toBeLessThanOrEqual(box.x + box.width);
});

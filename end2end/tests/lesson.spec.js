import { test, expect } from './fixtures.js';
import AxeBuilder from '@axe-core/playwright';

// The lesson panel (src/shell/lesson.rs), driven by keyboard only: Tab to
// a control, then Enter, Space or the arrow keys. Every wait is for a state.

const serious = (results) => results.violations
  .filter((v) => ['serious', 'critical'].includes(v.impact))
  .map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`);

const focusedId = (page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? '');

// Presses Tab until the focused element's test id matches.
async function tabTo(page, match) {
  const wanted = typeof match === 'string' ? (id) => id === match : (id) => match.test(id);
  for (let i = 0; i < 400; i += 1) {
    if (wanted(await focusedId(page))) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${match}`);
}

async function press(page, testid, key = 'Enter') {
  await tabTo(page, testid);
  await page.keyboard.press(key);
}

async function openLesson(page, path) {
  await page.goto(path);
  await expect(page.getByTestId('step')).toBeVisible();
  await press(page, 'lesson-open');
  await expect(page.getByTestId('lesson')).toBeVisible();
  await expect(page.getByTestId('lesson-title')).toBeFocused();
}

// The right answers the reveal shows ("The right answer: E." / "Right answers: a; b.").
async function shownAnswers(page) {
  const text = (await page.getByTestId('lesson-verdict').locator('p').first().textContent()).trim();
  return text.slice(text.indexOf(': ') + 2).replace(/\.$/, '').split('; ');
}

// Replies to the open stop's question: `guess` (the first option, or 0),
// `right` or `wrong` (given the right answers); then Check. Returns whether
// it was graded right.
async function reply(page, how, answers = []) {
  const options = page.locator('[data-testid^="lesson-option-"]');
  const n = await options.count();
  if (n > 0) {
    const labels = [];
    for (let i = 0; i < n; i += 1) {
      labels.push((await options.nth(i).locator('xpath=..').textContent()).trim());
    }
    let pick = 0;
    if (how === 'right') pick = labels.findIndex((l) => answers.includes(l));
    if (how === 'wrong') pick = labels.findIndex((l) => !answers.includes(l));
    expect(pick).toBeGreaterThanOrEqual(0);
    await tabTo(page, /^lesson-option-/);
    // Tab lands on the group's first radio; Space picks it, arrows move.
    await page.keyboard.press('Space');
    for (let i = 0; i < pick; i += 1) await page.keyboard.press('ArrowDown');
    await expect(options.nth(pick)).toBeChecked();
  } else {
    const right = Number(answers[0]?.split(' ')[0].replace('−', '-'));
    const value = how === 'guess' ? '0' : how === 'right' ? String(right) : String(right + 1e6);
    await tabTo(page, 'lesson-number');
    await page.keyboard.type(value);
  }
  await press(page, 'lesson-check');
  const verdict = page.getByTestId('lesson-verdict');
  await expect(verdict).toBeVisible();
  await expect(verdict).toBeFocused();
  await expect(page.getByTestId('lesson-said')).toBeVisible();
  return (await verdict.getAttribute('data-right')) === 'true';
}

// Opens stop `k` (from 1) anew, by Previous and Next.
async function reopen(page, k, stops) {
  const lesson = page.getByTestId('lesson');
  const [away, back] = k > 1 ? ['lesson-prev', 'lesson-next'] : ['lesson-next', 'lesson-prev'];
  await press(page, away);
  await expect(lesson).not.toHaveAttribute('data-stop', String(k));
  await press(page, back);
  await expect(lesson).toHaveAttribute('data-stop', String(k));
  expect(stops).toBeGreaterThan(1);
}

// Walks a whole lesson: each task done with `tasks[k]`, each question
// answered; the first one both wrongly and rightly.
async function wholeLesson(page, path, tasks) {
  await openLesson(page, path);
  const lesson = page.getByTestId('lesson');
  const stops = Number(await lesson.getAttribute('data-stops'));
  const predictions = Number(await lesson.getAttribute('data-predictions'));
  expect(stops).toBeGreaterThanOrEqual(4);
  expect(predictions).toBeGreaterThanOrEqual(2);
  let first = true;
  const seen = [];
  for (let k = 1; k <= stops; k += 1) {
    await expect(lesson).toHaveAttribute('data-stop', String(k));
    await expect(page.getByTestId('lesson-said')).toContainText(`Stop ${k} of ${stops}`);
    const task = page.getByTestId('lesson-task');
    if (await task.count()) {
      await expect(task).toHaveAttribute('data-done', 'false');
      await tasks[k]();
      await expect(task).toHaveAttribute('data-done', 'true');
    }
    if (await page.getByTestId('lesson-question').count()) {
      // The question is in the picture as text.
      await expect(page.getByTestId('as-text')).toContainText('question:');
      const right = await reply(page, 'guess');
      seen.push(right);
      if (first) {
        first = false;
        const answers = await shownAnswers(page);
        await reopen(page, k, stops);
        if (await task.count()) await tasks[k]();
        seen.push(await reply(page, right ? 'wrong' : 'right', answers));
        expect(seen).toContain(true);
        expect(seen).toContain(false);
      }
    }
    if (k < stops) await press(page, 'lesson-next');
  }
  await expect(page.getByTestId('lesson-next-links').getByRole('link').first()).toBeVisible();
  await expect(page.getByTestId('lesson-progress')).toContainText(`${stops} of ${stops} stops done`);
}

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
  await wholeLesson(page, '/cpu/mesi', {
    5: async () => {
      await press(page, 'invalidation', 'Space');
      await press(page, 'write-b');
      await press(page, 'read-a');
    },
  });
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

// Walking a lesson (src/shell/lesson.rs) by keyboard only, as a learner
// would: Tab to a control, then Enter, Space or the arrow keys. Every wait
// is for a state. Used by lesson.spec.js and scorm.spec.js.
import { expect } from './fixtures.js';

export const focusedId = (page) => page.evaluate(() => document.activeElement?.getAttribute('data-testid') ?? '');

// Presses Tab until the focused element's test id matches.
export async function tabTo(page, match) {
  const wanted = typeof match === 'string' ? (id) => id === match : (id) => match.test(id);
  for (let i = 0; i < 400; i += 1) {
    if (wanted(await focusedId(page))) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab never reached ${match}`);
}

export async function press(page, testid, key = 'Enter') {
  await tabTo(page, testid);
  await page.keyboard.press(key);
}

// Opens the lesson of the demo at `path`, or (no path) of the demo shown.
export async function openLesson(page, path) {
  if (path) await page.goto(path);
  await expect(page.getByTestId('step')).toBeVisible();
  await press(page, 'lesson-open');
  await expect(page.getByTestId('lesson')).toBeVisible();
  await expect(page.getByTestId('lesson-title')).toBeFocused();
}

// The right answers the reveal shows ("The right answer: E." / "Right answers: a; b.").
export async function shownAnswers(page) {
  const text = (await page.getByTestId('lesson-verdict').locator('p').first().textContent()).trim();
  return text.slice(text.indexOf(': ') + 2).replace(/\.$/, '').split('; ');
}

// Replies to the open stop's question: `guess` (the first option, or 0),
// `right` or `wrong` (given the right answers); then Check. Returns whether
// it was graded right.
export async function reply(page, how, answers = []) {
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
export async function reopen(page, k, stops) {
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
export async function wholeLesson(page, path, tasks) {
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

// The MESI lesson's task: stop 5 asks for a write that invalidates.
export const mesiTasks = (page) => ({
  5: async () => {
    await press(page, 'invalidation', 'Space');
    await press(page, 'write-b');
    await press(page, 'read-a');
  },
});

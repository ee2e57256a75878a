// A newcomer's first minute, on every demo: the skip link loses nothing,
// what Step did (or why it was refused) is in sight at every size, Step is a
// few Tab presses from the top, every demo can be broken, and focus is never
// dropped to the page.
import { test, expect } from './fixtures.js';
import { demoRoutes } from './routes.js';

const routes = demoRoutes();
const SIZES = [[390, 844], [1024, 768], [1366, 768], [1920, 1080]];

/** Opens `path` and waits for its demo. */
async function open(page, path) {
  await page.goto(path);
  await expect(page.getByTestId('demo')).toBeVisible();
  await expect(page.getByTestId('narration-latest')).not.toHaveText('');
}

test('the skip link moves focus to the content and keeps the address, the step and the history', async ({ page }) => {
  // Every demo in turn, like the tests below: 15–17 s on an idle machine,
  // over the default 30 s once, under a full suite's load.
  test.setTimeout(90_000);
  for (const path of routes) {
    await open(page, path);
    // A step first, so there is something to lose (a refused first step
    // leaves the count at 0, which must stay too).
    await page.getByTestId('step').click();
    const before = {
      url: page.url(),
      step: await page.getByTestId('step-count').textContent(),
      history: await page.evaluate(() => history.length),
    };
    await page.locator('.skip-link').focus();
    await page.keyboard.press('Enter');
    await expect(page.locator('#main'), path).toBeFocused();
    expect(page.url(), path).toBe(before.url);
    await expect(page.getByTestId('step-count'), path).toHaveText(before.step);
    expect(await page.evaluate(() => history.length), path).toBe(before.history);
  }
});

for (const [width, height] of SIZES) {
  test.describe(`at ${width}×${height}`, () => {
    test.use({ viewport: { width, height } });

    test('the latest narration line is in sight after a Step, and after one from far down the page', async ({ page }) => {
      test.setTimeout(90_000);
      const latest = page.getByTestId('narration-latest');
      for (const path of routes) {
        await open(page, path);
        const before = await latest.textContent();
        await page.getByTestId('step').click();
        await expect(latest, path).not.toHaveText(before);
        await expect(latest, `${path}: after Step`).toBeInViewport({ ratio: 1 });
        // Scrolled to the end of the page (where "why it matters" is), the
        // Step key still shows its answer: the dock stays in sight.
        await page.evaluate(() => {
          document.getElementById('main').focus({ preventScroll: true });
          window.scrollTo(0, document.documentElement.scrollHeight);
        });
        // The key is handled as it is dispatched: the page has redrawn once
        // the press returns.
        await page.keyboard.press('ArrowRight');
        await expect(latest, `${path}: after Step from the end of the page`).toBeInViewport({ ratio: 1 });
        await expect(page.getByTestId('step'), `${path}: Step at the end of the page`).toBeInViewport({ ratio: 1 });
      }
    });
  });
}

test('a refused Step says why where Step is pressed, on a phone', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  // The descriptor ring refuses a Step before anything is posted.
  await open(page, '/nic/descriptor-ring');
  await page.getByTestId('step').click();
  const latest = page.getByTestId('narration-latest');
  await expect(latest).toHaveAttribute('data-tone', 'refused');
  await expect(latest).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId('step')).toBeInViewport({ ratio: 1 });
});

test('Step is within the first 10 Tab stops on every demo', async ({ page }) => {
  const far = [];
  for (const path of routes) {
    await open(page, path);
    let presses = 0;
    for (; presses < 10; presses += 1) {
      await page.keyboard.press('Tab');
      if (await page.evaluate(() => document.activeElement?.dataset.testid === 'step')) break;
    }
    if (presses >= 10) far.push(path);
  }
  expect(far).toEqual([]);
});

test('every demo has its Break it zone, in the same place', async ({ page }) => {
  const missing = [];
  for (const path of routes) {
    await open(page, path);
    const zone = page.getByTestId('break-it');
    if ((await zone.count()) !== 1) {
      missing.push(path);
      continue;
    }
    // The last of the demo's controls, marked as the danger zone.
    await expect(zone, path).toHaveClass(/danger-zone/);
    const last = await page.evaluate(() => {
      const controls = document.querySelector('.controls');
      return controls.lastElementChild?.dataset.testid;
    });
    expect(last, path).toBe('break-it');
  }
  expect(missing).toEqual([]);
});

test('a control disabled under focus hands focus to its neighbour', async ({ page }) => {
  await open(page, '/nic/descriptor-ring');
  await page.getByTestId('post').click();
  await expect(page.getByTestId('step-count')).toHaveText('step 1');
  await page.getByTestId('back').focus();
  // Back to step 0: Back goes disabled, and focus moves on to Step.
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('step-count')).toHaveText('step 0');
  await expect(page.getByTestId('back')).toBeDisabled();
  await expect(page.getByTestId('step')).toBeFocused();
});

test('the shortcuts list takes focus and gives it back', async ({ page }) => {
  await open(page, '/cpu/tlb');
  await page.getByTestId('step').focus();
  await page.keyboard.press('?');
  await expect(page.getByTestId('shortcuts')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('shortcuts')).toHaveCount(0);
  await expect(page.getByTestId('step')).toBeFocused();
  // Its Close button too.
  await page.keyboard.press('?');
  await page.getByRole('button', { name: 'Close' }).click();
  await expect(page.getByTestId('step')).toBeFocused();
});

test('a picture is one Tab stop; the arrow keys move among its clickable shapes', async ({ page }) => {
  await open(page, '/cpu/cache-hierarchy');
  const picture = page.locator('svg.scene:has([role=button][data-slot])').first();
  const shapes = picture.locator('[role=button][data-slot]');
  expect(await shapes.count()).toBeGreaterThan(3);
  await expect(picture.locator('[role=button][tabindex="0"]')).toHaveCount(1);
  const first = picture.locator('[role=button][tabindex="0"]');
  await first.focus();
  const firstId = await first.getAttribute('data-testid');
  await page.keyboard.press('ArrowRight');
  // Focus moved to the next shape, which is now the picture's Tab stop; no step was taken.
  const focused = await page.evaluate(() => document.activeElement?.dataset.testid);
  expect(focused).not.toBe(firstId);
  await expect(picture.locator(`[data-testid="${focused}"]`)).toHaveAttribute('tabindex', '0');
  await expect(picture.locator('[role=button][tabindex="0"]')).toHaveCount(1);
  await expect(page.getByTestId('step-count')).toHaveText('step 0');
  await page.keyboard.press('Home');
  await expect(first).toBeFocused();
});

// On a phone, a picture or table wider than the screen scrolls inside its
// own box (the page itself never scrolls sideways), and a shade on the edge
// says that more lies that way.
import { test, expect } from './fixtures.js';
import { DemoPage } from '../pages/demo-page.js';
import { HomePage } from '../pages/home-page.js';

test.use({ viewport: { width: 390, height: 844 } });

test('a table wider than the screen scrolls in its box, and its edge shows where more lies', async ({ page }) => {
  // MESI's bus-traffic table has a column per event: wider than a phone.
  const demo = new DemoPage(page, '/cpu/mesi');
  await demo.open();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const wide = page.locator('.table-scroll').filter({ has: page.locator('table') }).last();
  const box = await wide.evaluate((el) => ({
    scrolls: el.scrollWidth > el.clientWidth,
    background: getComputedStyle(el).backgroundImage,
    attachment: getComputedStyle(el).backgroundAttachment,
  }));
  expect(box.scrolls).toBe(true);
  // Two covers that scroll with the content hide the two shades that stay
  // with the box, each once its edge is reached.
  expect(box.background.match(/radial-gradient/g)).toHaveLength(2);
  expect(box.attachment).toMatch(/^local, local, scroll, scroll/);
});

test('no page of the lab scrolls sideways on a phone', async ({ page }) => {
  const home = new HomePage(page);
  await home.open();
  const paths = await home.demoPaths();
  expect(paths.length).toBeGreaterThan(0);
  const wide = [];
  for (const path of ['/', ...paths]) {
    await page.goto(path);
    await expect(page.locator('#app-root h1').first()).toBeVisible();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    if (width > 390) wide.push(`${path}: ${width}px`);
  }
  expect(wide).toEqual([]);
});

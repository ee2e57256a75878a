// What every demo gets from its picture being data: a standalone SVG to
// download for slides, and the same picture as text.
import { readFile } from 'node:fs/promises';
import { test, expect } from './fixtures.js';
import { RingPage } from '../pages/ring-page.js';

test('Download figure saves the current picture as a standalone SVG with its styles', async ({ page }) => {
  const ring = new RingPage(page);
  await ring.open();
  await ring.post();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('download-figure').click(),
  ]);
  expect(download.suggestedFilename()).toBe('stack-lab-descriptor-ring.svg');
  const svg = await readFile(await download.path(), 'utf8');
  expect(svg).toMatch(/^(<\?xml[^>]*>\s*)?<svg/);
  expect(svg).toContain('xmlns="http://www.w3.org/2000/svg"');
  // The light theme travels inside the file: no stylesheet link, no script.
  expect(svg).toContain('<style>');
  expect(svg).not.toContain('<script');
  expect(svg).not.toContain('href="http');
  // It shows the state on screen now: the posted descriptor, not the opening one.
  expect(svg).toContain('TAIL');
  // Parsed in a blank page: the lab's own pages allow no string into an
  // HTML sink (Trusted Types), DOMParser included.
  const blank = await page.context().newPage();
  const parsed = await blank.evaluate((text) => {
    const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
    return { error: doc.querySelector('parsererror') !== null, texts: doc.querySelectorAll('text').length };
  }, svg);
  await blank.close();
  expect(parsed.error).toBe(false);
  expect(parsed.texts).toBeGreaterThan(10);
});

test('the picture as text follows the state', async ({ page }) => {
  const ring = new RingPage(page);
  await ring.open();
  const asText = page.getByTestId('as-text');
  await asText.locator('summary').click();
  await expect(asText).toContainText('TAIL 0');
  await ring.post();
  await expect(asText).toContainText('TAIL 1');
});

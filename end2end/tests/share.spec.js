import { test, expect } from './fixtures.js';
import { RingPage } from '../pages/ring-page.js';
import { NapiPage } from '../pages/napi-page.js';
import { EncapsulationPage } from '../pages/encapsulation-page.js';

test('a copied link reopens the same state in a fresh page', async ({ page, context, browser }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const ring = new RingPage(page);
  await ring.open();
  await ring.chooseTx();
  await ring.post();
  await ring.post();
  await ring.barrier();
  await ring.doorbell();
  await ring.step();
  const link = await ring.copyLink();
  await expect(page.getByTestId('share-message')).toContainText('Link copied');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(link);
  const again = new RingPage(other);
  await again.expectFigure('mode', 'TX');
  await again.expectFigure('tail', 2);
  await again.expectFigure('doorbell', 2);
  await again.expectDescriptor(1, 'NIC');
  await expect(other.getByTestId('dma')).toContainText('holds descriptor #0');
  await again.expectStep(5);
  await expect(other.getByTestId('link-notice')).toHaveCount(0);
  await fresh.close();
});

test('a NAPI link keeps the budget and the counters', async ({ page }) => {
  const napi = new NapiPage(page);
  await napi.open();
  await napi.setBudget(3);
  await napi.setBurst(7);
  await napi.sendBurst();
  await napi.step();
  const link = await napi.copyLink();
  await page.goto(link);
  await napi.expectFigure('budget', 3);
  await napi.expectFigure('occupancy', '4/16');
  await napi.expectFigure('polls', 1);
});

const hostile = [
  ['garbage', '?s=not-a-scenario'],
  ['bad base64', '?s=v1.%%%%'],
  ['script text', '?s=v1.<script>alert(1)</script>'],
  ['truncated', '?s=v1.AQ'],
  ['huge', `?s=v1.${'A'.repeat(13000)}`],
];

for (const [name, query] of hostile) {
  test(`a ${name} link opens the defaults with a notice`, async ({ page }) => {
    let dialogs = 0;
    page.on('dialog', (d) => { dialogs += 1; d.dismiss(); });
    const ring = new RingPage(page);
    await ring.open(query);
    await expect(page.getByTestId('link-notice')).toContainText('could not be restored');
    await ring.expectDescriptor(0, 'FREE');
    await ring.expectStep(0);
    await expect(page.locator('script:not([type])', { hasText: 'alert' })).toHaveCount(0);
    expect(dialogs).toBe(0);
  });
}

test('a link whose steps the model refuses opens the defaults with a notice', async ({ page }) => {
  // A NAPI scenario with a burst of 200 packets: decodes, but the model refuses it.
  const napi = new NapiPage(page);
  await napi.open();
  await napi.setBurst(2);
  await napi.sendBurst();
  const link = await napi.copyLink();
  // The burst size is the last byte before the end of the postcard payload;
  // rebuild the link with an out-of-range size instead.
  const encoded = new URL(link).searchParams.get('s').slice(3);
  const bytes = Buffer.from(encoded, 'base64url');
  bytes[bytes.length - 1] = 100;
  await page.goto(`/nic/napi?s=v1.${bytes.toString('base64url')}`);
  await expect(page.getByTestId('link-notice')).toContainText('cannot be replayed');
  await napi.expectFigure('occupancy', '0/16');
});

// What the learner picked to look at is part of the link too: the link
// reopens the same picture, and one more Step draws the same next picture.
test('a share link carries the view selection: the picture as text matches after one more Step', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const enc = new EncapsulationPage(page);
  await enc.open();
  await enc.stepTo('on the wire');
  await enc.field('ip-ttl').click();
  await expect(enc.bits).toContainText('Time to Live');
  const link = await enc.copyLink();
  const asText = (p) => p.getByTestId('as-text').textContent();
  const shownHere = await asText(page);
  await enc.step();
  const nextHere = await asText(page);

  const other = await context.newPage();
  await other.goto(link);
  await expect(other.getByTestId('bits')).toContainText('Time to Live');
  await expect(other.getByTestId('link-notice')).toHaveCount(0);
  expect(await asText(other)).toBe(shownHere);
  await other.getByTestId('step').click();
  await expect(other.getByTestId('step-count')).toHaveText(await page.getByTestId('step-count').textContent());
  expect(await asText(other)).toBe(nextHere);
});

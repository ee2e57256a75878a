import { test, expect } from './fixtures.js';
import AxeBuilder from '@axe-core/playwright';
import { JourneyPage } from '../pages/journey-page.js';

// The three configurations of a 64-byte message at 10 GbE, as the model
// computes them (demos/src/journey/tests.rs pins the same figures).
const INTERRUPT = { total: '9,036 ns', dominant: 'socket: wakeup + recvmsg() (49.8 %)' };
const BUSY_POLL = { total: '3,536 ns', dominant: 'NAPI poll: driver, IP, TCP (42.4 %)' };
const BYPASS = { total: '1,246 ns', dominant: 'NIC fetches descriptor + payload (PCIe) (44.1 %)' };

const nanoseconds = (text) => Number(text.replace(/[^0-9]/g, ''));

test('64 bytes: busy polling, then kernel bypass, each takes the dominating stage away', async ({ page }) => {
  const j = new JourneyPage(page);
  await j.open();
  await expect(page.getByTestId('journey-stage')).toHaveCount(16);
  await j.expectTotal(INTERRUPT.total);
  await j.expectDominant(INTERRUPT.dominant);

  await j.use('busy-poll');
  await j.expectTotal(BUSY_POLL.total);
  await j.expectDominant(BUSY_POLL.dominant);
  await expect(j.stage('interrupt')).toHaveAttribute('data-state', 'off');

  await j.use('bypass');
  await j.expectTotal(BYPASS.total);
  await j.expectDominant(BYPASS.dominant);
  await expect(j.stage('socket')).toHaveAttribute('data-state', 'off');
  await expect(j.stage('app-poll')).not.toHaveAttribute('data-state', 'off');

  // The table keeps every configuration tried, and the total fell each time.
  const totals = await j.tried.locator('[data-testid$="-total"]').allTextContents();
  expect(totals).toEqual([INTERRUPT.total, BUSY_POLL.total, BYPASS.total]);
  expect(nanoseconds(totals[1])).toBeLessThan(nanoseconds(totals[0]));
  expect(nanoseconds(totals[2])).toBeLessThan(nanoseconds(totals[1]));
  const dominant = await j.tried.locator('[data-testid$="-dominant"]').allTextContents();
  expect(new Set(dominant).size).toBe(3);
});

test('Step moves the message one stage, Back returns it, and the clock follows the stages', async ({ page }) => {
  const j = new JourneyPage(page);
  await j.open();
  await j.step();
  await expect(j.stage('send')).toHaveAttribute('data-state', 'here');
  await expect(j.latest).toContainText('send()');
  const cost = await j.stage('send').getByTestId('cost').textContent();
  await expect(page.getByTestId('clock')).toContainText(`t = ${cost.split(' · ')[0]}`);
  await j.step();
  await expect(j.stage('send')).toHaveAttribute('data-state', 'passed');
  await expect(j.stage('segment')).toHaveAttribute('data-state', 'here');
  await j.back();
  await expect(j.stage('send')).toHaveAttribute('data-state', 'here');
  await expect(j.stage('segment')).toHaveAttribute('data-state', 'ahead');
});

test('Break it: a dropped last frame waits for the retransmission timer', async ({ page }) => {
  const j = new JourneyPage(page);
  await j.open();
  await expect(j.stage('retransmit')).toHaveAttribute('data-state', 'off');
  await page.getByTestId('break-drop').setChecked(true);
  await expect(j.stage('retransmit')).not.toHaveAttribute('data-state', 'off');
  await expect(j.figure('dominant')).toContainText('drop, retransmission timer, resend');
  const total = nanoseconds(await j.figure('total').textContent());
  expect(total).toBeGreaterThan(nanoseconds(INTERRUPT.total));
});

test('drill into two stages (from the stage picked, and from a row), each in the journey\'s configuration, and come back to the same state', async ({ page }) => {
  const j = new JourneyPage(page);
  await j.open();
  await j.use('busy-poll');

  // The receive side: the busy-poll demo opens with busy polling on.
  await j.pick('interrupt');
  await expect(page.getByRole('heading', { name: 'Stage: MSI-X + hard IRQ' })).toBeVisible();
  await j.drillDown('/nic/busy-poll');
  await expect(page.getByTestId('use-busy-poll')).toBeChecked();
  await j.comeBack();
  await expect(j.technique('busy-poll')).toBeChecked();
  await j.expectTotal(BUSY_POLL.total);
  await expect(j.stage('interrupt').getByTestId('journey-stage')).toHaveClass(/selected/);

  // The wire, from its row's own link: the encapsulation demo opens with
  // the journey's MSS.
  await page.getByTestId('mss-536').check();
  await j.pick('wire');
  await page.evaluate(() => { window.stillThisPage = true; });
  await j.drillDown('/net/encapsulation', j.rowLink('wire'));
  // An SVG link is followed inside the app, as an HTML one: no reload.
  expect(await page.evaluate(() => window.stillThisPage)).toBe(true);
  await expect(page.getByTestId('demo')).toHaveAttribute('data-demo', 'encapsulation');
  await expect(page.getByTestId('link-notice')).toHaveCount(0);
  await expect(j.figure('mss')).toHaveText('536');
  await j.comeBack();
  await expect(j.technique('busy-poll')).toBeChecked();
  await expect(page.getByTestId('mss-536')).toBeChecked();
  await expect(j.stage('wire').getByTestId('journey-stage')).toHaveClass(/selected/);
  await expect(page.getByRole('heading', { name: 'Stage: serialisation on the wire' })).toBeVisible();
});

test('a stage\'s demo opened on its own links to the journey, and the home page does at its top', async ({ page }) => {
  await page.goto('/nic/napi');
  const link = page.getByTestId('way-back');
  await expect(link).toHaveText('This demo is a stage of One message, end to end →');
  await link.click();
  await expect(page.getByTestId('demo')).toHaveAttribute('data-demo', 'journey');
  await page.goto('/cpu/tlb');
  await expect(page.getByTestId('demo')).toBeVisible();
  await expect(page.getByTestId('way-back')).toHaveCount(0);
  await page.goto('/');
  await page.getByTestId('journey-link').click();
  await expect(page.getByTestId('demo')).toHaveAttribute('data-demo', 'journey');
  // A way back that names no demo of the lab is not offered.
  await page.goto('/nic/napi?from=https://example.com/&from_s=v1.AA');
  await expect(page.getByTestId('demo')).toBeVisible();
  await expect(page.getByTestId('way-back')).not.toContainText('Back to');
});

test('a share link brings back the techniques, the size and the step', async ({ page, context }) => {
  const j = new JourneyPage(page);
  await j.open();
  await page.getByTestId('message-1024').check();
  await j.use('zero-copy');
  await j.step();
  await j.step();
  const total = await j.figure('total').textContent();
  const steps = await j.stepCount.textContent();
  const url = await j.copyLink();
  const again = new JourneyPage(await context.newPage());
  await again.page.goto(url);
  await expect(again.demo).toBeVisible();
  await expect(again.stepCount).toHaveText(steps);
  await again.expectTotal(total);
  await expect(again.technique('zero-copy')).toBeChecked();
  await expect(again.page.getByTestId('message-1024')).toBeChecked();
  await expect(again.stage('segment')).toHaveAttribute('data-state', 'here');
});

test('keyboard only: a technique, a stage, its demo and the way back', async ({ page }) => {
  const j = new JourneyPage(page);
  await j.open();
  const tabTo = async (locator) => {
    for (let i = 0; i < 80; i += 1) {
      if (await locator.evaluate((el) => el === document.activeElement)) return;
      await page.keyboard.press('Tab');
    }
    await expect(locator).toBeFocused();
  };
  await tabTo(j.technique('busy-poll'));
  await page.keyboard.press(' ');
  await expect(j.technique('busy-poll')).toBeChecked();
  await expect(j.figure('total')).not.toHaveText(INTERRUPT.total);
  await tabTo(page.getByTestId('step'));
  await page.keyboard.press('Enter');
  await expect(j.stage('send')).toHaveAttribute('data-state', 'here');
  await tabTo(j.stage('send'));
  await page.keyboard.press('ArrowDown');
  await expect(j.stage('segment')).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Stage: TCP segmentation at the MSS' })).toBeVisible();
  await tabTo(j.drill);
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.pathname === '/net/encapsulation');
  await tabTo(page.getByTestId('way-back'));
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.pathname === '/journey');
  await expect(j.technique('busy-poll')).toBeChecked();
  await expect(page.getByRole('heading', { name: 'Stage: TCP segmentation at the MSS' })).toBeVisible();
});

test('the journey has no serious accessibility violations', async ({ page }) => {
  const j = new JourneyPage(page);
  await j.open();
  await j.use('busy-poll');
  await j.step();
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
});

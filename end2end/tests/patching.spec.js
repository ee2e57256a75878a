// The renderer patches a picture step by step, and between steps it builds
// only the shapes that changed (the rest are stand-ins for what the page
// has). Whatever it skipped, the patched picture must be the picture a fresh
// load of the same state draws from scratch.
import { test, expect } from './fixtures.js';
import { DemoPage } from '../pages/demo-page.js';
import { ReorderingPage } from '../pages/reordering-page.js';

// Every element under the picture as tag, sorted attributes and own text:
// a patched node may list its attributes in another order than a parsed one.
const picture = (page) => page.getByTestId('visual').evaluate((root) => {
  const out = [];
  const walk = (el, depth) => {
    const attrs = [...el.attributes].map((a) => `${a.name}=${a.value}`).sort().join(' ');
    const text = [...el.childNodes].filter((n) => n.nodeType === Node.TEXT_NODE).map((n) => n.data).join('');
    out.push(`${'  '.repeat(depth)}<${el.localName} ${attrs}>${text}`);
    for (const child of el.children) walk(child, depth + 1);
  };
  walk(root, 0);
  return out.join('\n');
});

// Each demo with what a learner does first, so that Step has work to do.
const demos = {
  '/cpu/cache-hierarchy': (page) => page.getByTestId('thrash').click(),
  '/nic/descriptor-ring': async (page) => {
    for (const id of ['post', 'post', 'post', 'barrier', 'doorbell', 'arrive', 'arrive', 'arrive']) await page.getByTestId(id).click();
  },
  '/net/encapsulation': async () => {},
  '/cpu/numa': async () => {},
  '/net/allreduce': async () => {},
  '/cpu/locality': async () => {},
};

const count = async (demo) => Number((await demo.stepCount.textContent()).replace('step ', ''));

for (const [path, setup] of Object.entries(demos)) {
  test(`${path}: a picture patched over steps and a back is the one a fresh load draws`, async ({ page, browser }) => {
    const demo = new DemoPage(page, path);
    await demo.open();
    await setup(page);
    const start = await count(demo);
    for (let n = 1; n <= 4; n += 1) {
      await demo.step();
      await demo.expectStep(start + n);
    }
    await demo.back();
    await demo.expectStep(start + 3);
    await demo.step();
    await demo.expectStep(start + 4);
    const patched = await picture(page);
    const link = await demo.copyLink();

    const fresh = await browser.newContext();
    const other = await fresh.newPage();
    const again = new DemoPage(other, path);
    await other.goto(link);
    await again.expectStep(start + 4);
    expect(await picture(other)).toBe(patched);
    await fresh.close();
  });
}

// A first frame is parsed, not patched: each form control must come out of
// the markup holding the model's state (a select's choice as its option's
// `selected`), not the browser's default of the first option.
test('a fresh page\'s controls hold the model\'s state, not the first option', async ({ page, browser }) => {
  const lab = new ReorderingPage(page);
  await lab.open();
  await expect(page.getByTestId('speed')).toHaveValue('1');
  await lab.chooseTest('MP+rel+acq');
  await lab.chooseModel('ARMv8');
  const link = await lab.copyLink();

  const fresh = await browser.newContext();
  const other = await fresh.newPage();
  await other.goto(link);
  await expect(other.getByTestId('test')).toHaveValue('MP+rel+acq');
  await expect(other.getByTestId('speed')).toHaveValue('1');
  await expect(other.locator('[data-testid="test"] option:checked')).toHaveText(/MP\+rel\+acq/);
  await fresh.close();
});

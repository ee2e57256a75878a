// Each demo's code is a wasm module of its own (scripts/split-wasm.sh): a page
// fetches the main module and the module of the demo it shows, once, and no
// other demo's; and the chunks of code it shares with other demos
// (scripts/wasm-split-families.patch): its section's chunk, a chunk for each
// set of its section's demos that share much code, and a chunk for each set
// of demos of several sections that share more than a little. The journey
// composes the models of several sections' demos: it shares a chunk with
// each demo it alone shares code with, and with each section it draws on;
// it does not fetch the code only a section's demos share.
import { test, expect } from './fixtures.js';
import { DemoPage } from '../pages/demo-page.js';
import { HomePage } from '../pages/home-page.js';

/** Every .wasm the page requests, by file name. */
function wasmRequests(page) {
  const files = [];
  page.on('request', (request) => {
    const file = new URL(request.url()).pathname.split('/').pop();
    if (file.endsWith('.wasm')) files.push(file);
  });
  return files;
}

const mainModule = (file) => file.endsWith('_bg.wasm');
const familyChunk = (file) => /-chunk_\d+\.wasm$/.test(file);
// A part of the page fetched where it is shown (ui_lesson, ui_slide,
// ui_offline, ui_export), not a demo.
const uiModule = (file) => /-ui_\w+\.wasm$/.test(file);
const demoModules = (files) => files.filter((f) => !mainModule(f) && !familyChunk(f) && !uiModule(f));

/** The .wasm files a document preloads, by file name. */
const preloaded = (html) => [...html.matchAll(/<link rel="preload" href="[^"]*?([^/"]+\.wasm)"/g)].map((m) => m[1]);

// The TLB shares a cache simulator with two other CPU demos, and code with
// demos of other sections; a NIC demo's section is one the journey draws on,
// and its page fetches the code it shares with the journey too. The counts
// are the build's: a change in how code is cut shows here.
for (const [path, module, chunks] of [['/cpu/tlb', 'tlb', 4], ['/memory/reordering', 'reordering', 1], ['/nic/descriptor-ring', 'descriptor_ring', 2]]) {
  test(`${path} fetches the main module, its own and its chunks, once each, and no other demo's`, async ({ page, request }) => {
    const files = wasmRequests(page);
    const demo = new DemoPage(page, path);
    await demo.open();
    await expect(demo.latest).not.toBeEmpty();
    expect(files.filter(mainModule)).toHaveLength(1);
    expect(demoModules(files)).toEqual([expect.stringMatching(new RegExp(`-${module}\\.wasm$`))]);
    expect(files.filter(familyChunk)).toHaveLength(chunks);
    expect(new Set(files).size).toBe(files.length);
    // The same files its document preloads.
    expect([...files].sort()).toEqual(preloaded(await (await request.get(path)).text()).sort());
  });
}

/** The table of the head script that starts the modules' compiles early. */
const headTable = (html) => JSON.parse(html.match(/<script data-modules='([^']*)'>/)[1]);

test('a demo\'s own document names its demo\'s modules alone; index.html names every demo\'s', async ({ request }) => {
  const own = headTable(await (await request.get('/cpu/tlb')).text());
  expect(Object.keys(own)).toEqual(['tlb']);
  const tlbPreloads = preloaded(await (await request.get('/cpu/tlb')).text()).filter((f) => !mainModule(f));
  expect(own.tlb.map((f) => f.split('/').pop()).sort()).toEqual(tlbPreloads.sort());
  // Served at an address with no document of its own (a host without
  // <path>.html), index.html still starts any demo's modules early.
  const every = headTable(await (await request.get('/index.html')).text());
  expect(every.tlb).toEqual(own.tlb);
  expect(Object.keys(every)).toEqual(expect.arrayContaining(['tlb', 'reordering', 'descriptor_ring', 'journey']));
});

test('two demos of one section share its chunk: the second fetches its own module, and no chunk again', async ({ page, request }) => {
  const files = wasmRequests(page);
  const home = new HomePage(page);
  await home.open();
  await page.getByTestId('card-tlb').click();
  const tlb = new DemoPage(page, '/cpu/tlb');
  await expect(tlb.latest).not.toBeEmpty();
  const chunks = files.filter(familyChunk);
  expect(chunks.length).toBeGreaterThan(0);
  await page.goBack();
  await page.getByTestId('card-locality').click();
  const locality = new DemoPage(page, '/cpu/locality');
  await expect(locality.latest).not.toBeEmpty();
  await locality.step();
  expect(demoModules(files)).toEqual([expect.stringMatching(/-tlb\.wasm$/), expect.stringMatching(/-locality\.wasm$/)]);
  // Locality's chunks that the TLB page had fetched are not fetched again.
  const needed = preloaded(await (await request.get('/cpu/locality')).text()).filter(familyChunk);
  const shared = needed.filter((c) => chunks.includes(c));
  expect(shared.length).toBeGreaterThan(0);
  expect(new Set(files).size).toBe(files.length);
  expect(files.filter(familyChunk).sort()).toEqual([...new Set([...chunks, ...needed])].sort());
});

test('a demo page asks for its document and its modules, and nothing else, until it can be stepped', async ({ page }) => {
  // Anything else fetched (the header's logo as an <img>, say) loads in the
  // middle of the app's start-up work, which it measurably slowed.
  const asked = [];
  page.on('request', (request) => asked.push({ path: new URL(request.url()).pathname, type: request.resourceType() }));
  // A demo no stage of the journey comes from: no chunk shared with it
  // alone. What it asks for is what its document preloads.
  const demo = new DemoPage(page, '/nic/mmio');
  await demo.open();
  await expect(page.getByTestId('step')).toBeVisible();
  // The browser fetches the tab's icon (<link rel="icon">) of its own accord.
  const byPage = asked.filter((r) => !(r.path === '/static/icon.svg' && r.type === 'other'));
  const modules = preloaded(await (await page.request.get('/nic/mmio')).text());
  expect(modules.filter(familyChunk)).toHaveLength(3);
  expect(byPage.map((r) => r.path.split('/').pop()).sort()).toEqual(['mmio', ...modules].sort());
});

test('the home page fetches no demo module; opening a card fetches that one demo', async ({ page }) => {
  const files = wasmRequests(page);
  const home = new HomePage(page);
  await home.open();
  // The home page's own: the main module and its offline panel's asking.
  await expect.poll(() => files.filter(uiModule)).toEqual([expect.stringMatching(/-ui_offline\.wasm$/)]);
  expect(files.filter((f) => !mainModule(f) && !uiModule(f))).toEqual([]);
  await page.getByTestId('card-mmio').click();
  const demo = new DemoPage(page, '/nic/mmio');
  await expect(demo.demo).toBeVisible();
  await expect(demo.latest).not.toBeEmpty();
  expect(demoModules(files)).toEqual([expect.stringMatching(/-mmio\.wasm$/)]);
  expect(files.filter(familyChunk)).toHaveLength(3);
});

test('a demo module still on its way is said, then the demo replaces the notice', async ({ page }) => {
  // Held back until the notice is seen: the page must say why it is empty.
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  await page.route('**/*-napi.wasm', async (route) => {
    await held;
    await route.continue();
  });
  const home = new HomePage(page);
  await home.open();
  await page.getByTestId('card-napi').click();
  const loading = page.getByTestId('demo-fetching');
  await expect(loading).toHaveText('Loading the NAPI poll loop model…');
  release();
  const demo = new DemoPage(page, '/nic/napi');
  await expect(demo.demo).toBeVisible();
  await expect(loading).toHaveCount(0);
});

test.describe('a demo module that cannot be fetched', () => {
  // The failed fetch is reported in the console; that is expected here.
  test.use({ allowConsoleErrors: true });

  // The demo's own module, and its section's chunk: either missing is the
  // same failure, and Try again fetches it anew.
  for (const { what, path, blocked, stepped } of [
    // The model answers: NAPI with an empty ring refuses Step, with the reason.
    { what: 'is said', path: '/nic/napi', blocked: '**/*-napi.wasm', stepped: 'Nothing to step: the ring is empty' },
    { what: 'a section chunk that cannot be fetched is said the same way', path: '/cpu/tlb', blocked: '**/*-chunk_*.wasm', stepped: undefined },
  ]) {
    test(`${what}, and Try again opens the demo once the network is back`, async ({ page }) => {
      await page.route(blocked, (route) => route.abort());
      await page.goto(path);
      const failed = page.getByTestId('demo-failed');
      await expect(failed).toBeVisible();
      await expect(failed).toContainText('could not be fetched');
      await expect(page.getByTestId('demo')).toHaveCount(0);

      await page.unroute(blocked);
      await failed.getByRole('button', { name: 'Try again' }).click();
      const demo = new DemoPage(page, path);
      await expect(demo.demo).toBeVisible();
      await expect(failed).toHaveCount(0);
      await demo.step();
      if (stepped === undefined) await expect(demo.latest).not.toBeEmpty();
      else await expect(demo.latest).toContainText(stepped);
    });
  }
});

test('a host that serves a demo module without the wasm MIME type still opens the demo', async ({ page }) => {
  // Streaming compilation refuses such a response; the loader compiles the
  // module from its bytes instead.
  let served = 0;
  await page.route('**/*-napi.wasm', async (route) => {
    const response = await route.fetch();
    served += 1;
    await route.fulfill({ response, headers: { ...response.headers(), 'content-type': 'application/octet-stream' } });
  });
  const demo = new DemoPage(page, '/nic/napi');
  await demo.open();
  // The model answers: NAPI with an empty ring refuses Step, with the reason.
  await demo.step();
  await expect(demo.latest).toContainText('Nothing to step: the ring is empty');
  expect(served).toBe(1);
});

test('every demo\'s address is served a document that preloads that demo\'s modules, and only them', async ({ page, request }) => {
  // scripts/demo-pages.py: the browser asks for all of them at once, before
  // any script has run.
  const home = new HomePage(page);
  await home.open();
  const cards = await home.demoPaths();
  expect(cards.length).toBeGreaterThan(0);
  const paths = [...cards, '/journey'];
  const section = (path) => (path === '/journey' ? '' : path.split('/')[1]);
  const demosIn = (id) => cards.filter((p) => section(p) === id).length;
  const fetchedBy = new Map();
  for (const path of paths) {
    const files = preloaded(await (await request.get(path)).text());
    const module = path.split('/').pop().replaceAll('-', '_');
    expect(demoModules(files), path).toEqual([expect.stringMatching(new RegExp(`-${module}\\.wasm$`))]);
    expect(files.filter(mainModule), path).toHaveLength(1);
    for (const chunk of files.filter(familyChunk)) fetchedBy.set(chunk, [...(fetchedBy.get(chunk) ?? []), path]);
  }
  expect(fetchedBy.size).toBeGreaterThan(0);
  // A chunk is one of three kinds, and fetched by those it names and no other.
  const sectionChunks = new Map();
  let acrossSections = 0;
  for (const [chunk, users] of fetchedBy) {
    expect(users.length, chunk).toBeGreaterThan(1);
    const demos = users.filter((p) => p !== '/journey');
    if (demos.length === 1) {
      // What only the journey and one demo share.
      expect(users.sort(), chunk).toEqual([demos[0], '/journey'].sort());
      continue;
    }
    if (new Set(demos.map(section)).size > 1) {
      // What demos of several sections share.
      acrossSections += 1;
      continue;
    }
    // What demos of one section share (two or more of them, the journey
    // too if it shares that code).
    expect(demosIn(section(demos[0]))).toBeGreaterThan(1);
    for (const user of demos) sectionChunks.set(user, [...(sectionChunks.get(user) ?? []), chunk]);
  }
  expect(acrossSections).toBeGreaterThan(0);
  // Every demo of a section of several fetches its section's chunk: one
  // that all of the section's demos fetch.
  for (const id of new Set(cards.map(section))) {
    const members = cards.filter((p) => section(p) === id);
    if (members.length < 2) continue;
    const common = members.map((p) => sectionChunks.get(p) ?? []).reduce((a, b) => a.filter((c) => b.includes(c)));
    expect(common.length, id).toBeGreaterThan(0);
  }
  // The home page's document names no demo's module.
  expect(preloaded(await (await request.get('/')).text()).filter((f) => !mainModule(f))).toEqual([]);
});

test('a demo page marks its start-up stages once, in order, and a step marks nothing', async ({ page }) => {
  // make bench reads these to split the app's own start-up work by stage.
  const demo = new DemoPage(page, '/cpu/batching');
  await demo.open();
  await expect(demo.latest).not.toBeEmpty();
  const marks = () => page.evaluate(() => performance.getEntriesByType('mark')
    .filter((m) => m.name.startsWith('stack-lab:'))
    .map((m) => m.name));
  const stages = ['stack-lab:app-start', 'stack-lab:demo-open', 'stack-lab:demo-frame', 'stack-lab:demo-drawn'];
  expect(await marks()).toEqual(stages);
  await demo.step();
  await expect(demo.stepCount).toHaveText('step 1');
  expect(await marks()).toEqual(stages);
});

test('a browser whose performance.mark throws still runs the demo', async ({ page }) => {
  await page.addInitScript(() => {
    performance.mark = () => { throw new Error('no User Timing here'); };
  });
  const demo = new DemoPage(page, '/cpu/batching');
  await demo.open();
  await expect(demo.latest).not.toBeEmpty();
  await demo.step();
  await expect(demo.stepCount).toHaveText('step 1');
  await expect(page.locator('#crash')).toBeHidden();
});

// The lesson panel's code is a module of its own (ui_lesson), fetched when
// a lesson first opens: a page whose learner never opens it does not pay.
test('the lesson panel\'s module is fetched when a lesson opens, once, and not before', async ({ page }) => {
  const files = wasmRequests(page);
  const demo = new DemoPage(page, '/cpu/mesi');
  await demo.open();
  await expect(demo.latest).not.toBeEmpty();
  expect(files.filter((f) => f.endsWith('-ui_lesson.wasm'))).toEqual([]);
  await page.getByTestId('lesson-open').click();
  await expect(page.getByTestId('lesson')).toBeVisible();
  await expect(page.getByTestId('lesson-title')).toBeFocused();
  await page.getByTestId('lesson-close').click();
  await page.getByTestId('lesson-open').click();
  await expect(page.getByTestId('lesson')).toBeVisible();
  expect(files.filter((f) => f.endsWith('-ui_lesson.wasm'))).toHaveLength(1);
});

// The figure export's code, with the copy of the scene styles the file
// carries, is a module of its own (ui_export), fetched on the first
// download: the page has its styles from its document.
test('the figure export\'s module is fetched on the first download, once, and not before', async ({ page }) => {
  const files = wasmRequests(page);
  const demo = new DemoPage(page, '/cpu/mesi');
  await demo.open();
  await expect(demo.latest).not.toBeEmpty();
  expect(files.filter((f) => f.endsWith('-ui_export.wasm'))).toEqual([]);
  for (let i = 0; i < 2; i += 1) {
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByTestId('download-figure').click(),
    ]);
    expect(download.suggestedFilename()).toBe('stack-lab-mesi.svg');
  }
  expect(files.filter((f) => f.endsWith('-ui_export.wasm'))).toHaveLength(1);
  await expect(page.getByTestId('figure-failed')).toHaveCount(0);
});

test.describe('a figure export module that cannot be fetched', () => {
  test.use({ allowConsoleErrors: true });

  test('is said beside the button, the demo keeps working, and Try again saves the figure', async ({ page }) => {
    await page.route('**/*-ui_export.wasm', (route) => route.abort());
    const demo = new DemoPage(page, '/cpu/mesi');
    await demo.open();
    await page.getByTestId('download-figure').click();
    const failed = page.getByTestId('figure-failed');
    await expect(failed).toContainText('could not be fetched');
    await demo.step();
    await expect(demo.stepCount).toHaveText('step 1');

    await page.unroute('**/*-ui_export.wasm');
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      failed.getByRole('button', { name: 'Try again' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('stack-lab-mesi.svg');
    await expect(failed).toHaveCount(0);
  });

  test('on a phone its notice stands under the button it is about', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.route('**/*-ui_export.wasm', (route) => route.abort());
    const demo = new DemoPage(page, '/cpu/mesi');
    await demo.open();
    const button = page.getByTestId('download-figure');
    await button.click();
    const failed = page.getByTestId('figure-failed');
    await expect(failed).toBeVisible();
    const notice = await failed.boundingBox();
    const under = await button.boundingBox();
    expect(notice.y).toBeGreaterThanOrEqual(under.y + under.height);
  });
});

test.describe('a lesson module that cannot be fetched', () => {
  test.use({ allowConsoleErrors: true });

  test('is said, the demo keeps working, and Try again opens the lesson', async ({ page }) => {
    await page.route('**/*-ui_lesson.wasm', (route) => route.abort());
    const demo = new DemoPage(page, '/cpu/mesi');
    await demo.open();
    await page.getByTestId('lesson-open').click();
    const failed = page.getByTestId('lesson-failed');
    await expect(failed).toContainText('could not be fetched');
    await demo.step();
    await expect(demo.latest).not.toBeEmpty();

    await page.unroute('**/*-ui_lesson.wasm');
    await failed.getByRole('button', { name: 'Try again' }).click();
    await expect(page.getByTestId('lesson')).toBeVisible();
    await expect(page.getByTestId('lesson-title')).toBeFocused();
    await expect(failed).toHaveCount(0);
  });

  test('on a phone its notice stands where the stop would, above the picture', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.route('**/*-ui_lesson.wasm', (route) => route.abort());
    await page.goto('/cpu/mesi?lesson=2');
    const failed = page.getByTestId('lesson-failed');
    await expect(failed).toBeVisible();
    const notice = await failed.boundingBox();
    const picture = await page.getByTestId('visual').boundingBox();
    expect(notice.y + notice.height).toBeLessThanOrEqual(picture.y);
  });
});

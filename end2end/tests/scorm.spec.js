// The SCORM 1.2 package (make scorm → dist-scorm/stack-lab-scorm12.zip) in
// an LMS played by the real client: scorm-again's SCORM 1.2 runtime, from
// npm, as `window.API` on the LMS's page. The package is unzipped and
// served as an LMS serves it: its files, from a folder, beside the LMS's
// page on the same origin. src/shell/lms.rs finds the API (in the frame's
// parent, or the popup's opener), and tells it the section's status and
// score after each lesson stop.
import { createServer } from 'node:http';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, normalize, extname } from 'node:path';
import { test, expect } from './fixtures.js';
import { wholeLesson, mesiTasks } from './lessons.js';

const zip = new URL('../../dist-scorm/stack-lab-scorm12.zip', import.meta.url).pathname;
const runtime = new URL('../node_modules/scorm-again/dist/scorm12.min.js', import.meta.url);
const types = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml', '.webmanifest': 'application/manifest+json', '.xml': 'application/xml',
};

// The LMS: scorm-again's API on the page, a learner record from an earlier
// session if the test gives one (`?kept=` the suspend data), and the SCO
// launched in a frame or, as a button press, in a window of its own.
const lmsPage = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A course</title><link rel="icon" href="data:,">
<script src="/scorm-again.js"></script></head>
<body><button id="launch">Launch</button>
<script>
  const asked = new URLSearchParams(location.search);
  window.API = new Scorm12API({ logLevel: 5 });
  if (asked.get('kept')) {
    API.loadFromJSON({ suspend_data: asked.get('kept'), core: { lesson_status: 'incomplete', entry: 'resume' } });
  }
  // What the SCO set, in order: cmi.core.exit and session_time are
  // write-only (LMSGetValue answers error 404).
  window.finished = false;
  window.sets = [];
  API.on('LMSSetValue.cmi.*', (element, value) => window.sets.push([element, value]));
  API.on('LMSFinish', () => { window.finished = true; });
  const sco = 'package/index.html?sco=' + asked.get('sco');
  if (asked.get('in') === 'frame') {
    const frame = document.createElement('iframe');
    Object.assign(frame, { src: sco, title: 'The activity', width: 1000, height: 700 });
    document.body.append(frame);
  }
  document.getElementById('launch').onclick = () => window.open(sco, 'sco');
</script></body></html>`;

let lms;
test.beforeAll(async () => {
  // The zip itself: what a lecturer uploads.
  const folder = await mkdtemp(join(tmpdir(), 'stack-lab-scorm-'));
  execFileSync('python3', ['-m', 'zipfile', '-e', zip, folder]);
  const server = createServer(async (req, res) => {
    const { pathname } = new URL(req.url, 'http://127.0.0.1');
    if (pathname === '/lms.html') return res.writeHead(200, { 'content-type': types['.html'] }).end(lmsPage);
    if (pathname === '/scorm-again.js') return res.writeHead(200, { 'content-type': types['.js'] }).end(await readFile(runtime));
    const file = pathname.startsWith('/package/') && normalize(decodeURIComponent(pathname.slice('/package/'.length)));
    if (!file || file.startsWith('..')) return res.writeHead(404).end();
    try {
      const body = await readFile(join(folder, file));
      res.writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  lms = { server, folder, url: `http://127.0.0.1:${server.address().port}` };
});
test.afterAll(async () => {
  lms.server.close();
  await rm(lms.folder, { recursive: true, force: true });
});

const cmi = (page, element) => page.evaluate((e) => API.LMSGetValue(e), element);
/** The last value the SCO set of a write-only element. */
const lastSet = (page, element) => page.evaluate((e) => window.sets.filter(([el]) => el === e).at(-1)?.[1], element);

test('the package names one SCO per section, each launching the lab', async () => {
  const manifest = execFileSync('python3', ['-c', 'import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).read("imsmanifest.xml").decode())', zip]).toString();
  expect(manifest).toContain('<schemaversion>1.2</schemaversion>');
  const launches = [...manifest.matchAll(/adlcp:scormtype="sco" href="([^"]+)"/g)].map((m) => m[1]);
  expect(launches).toEqual(['index.html?sco=nic', 'index.html?sco=host', 'index.html?sco=memory', 'index.html?sco=cpu', 'index.html?sco=net', 'index.html?sco=fabric', 'index.html?sco=gpu']);
});

test('framed by an LMS, a section reports itself begun; a demo page reloads from its file', async ({ page }) => {
  await page.goto(`${lms.url}/lms.html?sco=net&in=frame`);
  const sco = page.frameLocator('iframe');
  await expect(sco.getByTestId('lms-note')).toHaveText(/Your course records your progress in Networking, TCP & AI fabric: 0 of \d+ lessons done\./);
  expect(await cmi(page, 'cmi.core.lesson_status')).toBe('incomplete');
  expect(await lastSet(page, 'cmi.core.exit')).toBe('suspend');
  expect(await lastSet(page, 'cmi.core.session_time')).toMatch(/^\d{2,4}:[0-5]\d:[0-5]\d$/);
  // Pages inside the package are its files, so a reload finds them.
  await sco.getByTestId('card-handshake').click();
  await expect(sco.getByTestId('step')).toBeVisible();
  const frame = page.frames().find((f) => f.url().includes('/package/'));
  await expect.poll(() => frame.url()).toMatch(/\/package\/net\/handshake\.html$/);
  await frame.goto(frame.url());
  await expect(sco.getByTestId('step')).toBeEnabled();
  await sco.getByTestId('step').click();
  await expect(sco.getByTestId('step-count')).toHaveText(/1/);
});

test('a returning learner completes the last lesson of a section: completed, and the score set', async ({ page, context, baseURL }) => {
  // The section's lessons, as the lab shows them (the plain site, on
  // another origin: nothing it keeps reaches the package's pages).
  const reader = await context.newPage();
  await reader.goto(`${baseURL}/`);
  // The catalogue is drawn once the app starts: read it after its first card.
  const cards = reader.getByTestId('section-cpu').locator('[data-testid^="card-"]');
  await expect(cards.first()).toBeVisible();
  const slugs = await cards
    .evaluateAll((cards) => cards.map((c) => c.dataset.testid.slice('card-'.length)));
  expect(slugs).toContain('mesi');
  const lessons = {};
  for (const slug of slugs) {
    await reader.goto(`${baseURL}/cpu/${slug}?lesson=1`);
    const lesson = reader.getByTestId('lesson');
    await expect(lesson).toBeVisible();
    lessons[slug] = { stops: Number(await lesson.getAttribute('data-stops')), predictions: Number(await lesson.getAttribute('data-predictions')) };
  }
  await reader.close();
  // An earlier session did every lesson but MESI's, with no prediction right.
  const bits = (n) => 2 ** n - 1;
  const kept = slugs.filter((s) => s !== 'mesi')
    .map((s) => `${s}=2.${lessons[s].stops}.${bits(lessons[s].predictions)}.${bits(lessons[s].stops)}.0`).join(';');
  await page.goto(`${lms.url}/lms.html?sco=cpu&kept=${encodeURIComponent(kept)}`);

  const [sco] = await Promise.all([context.waitForEvent('page'), page.click('#launch')]);
  const problems = [];
  sco.on('console', (m) => {
    // Playwright's word when it blocks the lab's service worker (as the
    // fixture ignores it on the test's own page).
    if (m.text() === 'Service Worker registration blocked by Playwright') return;
    if (['error', 'warning'].includes(m.type())) problems.push(m.text());
  });
  sco.on('pageerror', (e) => problems.push(e.message));
  const others = slugs.length - 1;
  await expect(sco.getByTestId('lms-note')).toHaveText(`Your course records your progress in CPU & microarchitecture: ${others} of ${slugs.length} lessons done · predictions 0% right.`);
  // The course's records are now this browser's: the cards show them.
  const last = slugs.find((s) => s !== 'mesi');
  await expect(sco.getByTestId(`progress-${last}`)).toHaveText(`${lessons[last].stops}/${lessons[last].stops} stops`);
  expect(await cmi(page, 'cmi.core.lesson_status')).toBe('incomplete');

  await sco.getByTestId('card-mesi').click();
  await expect(sco.getByTestId('step')).toBeVisible();
  await wholeLesson(sco, null, mesiTasks(sco));
  const said = await sco.getByTestId('lesson-progress').textContent();
  const right = Number(said.match(/(\d+) of \d+ predictions right/)[1]);
  const asked = Object.values(lessons).reduce((sum, l) => sum + l.predictions, 0);
  await expect.poll(() => cmi(page, 'cmi.core.lesson_status')).toBe('completed');
  expect(await cmi(page, 'cmi.core.score.raw')).toBe(String(Math.floor((100 * right) / asked)));
  expect(await cmi(page, 'cmi.core.score.max')).toBe('100');
  expect(await cmi(page, 'cmi.suspend_data')).toMatch(new RegExp(`(^|;)mesi=2\\.${lessons.mesi.stops}\\.\\d+\\.${bits(lessons.mesi.stops)}\\.\\d+(;|$)`));
  expect(await lastSet(page, 'cmi.core.exit')).toBe('');

  // Leaving ends the session.
  await sco.close({ runBeforeUnload: true });
  await expect.poll(() => page.evaluate(() => window.finished)).toBe(true);
  expect(problems).toEqual([]);
});

test('without an LMS, the package is the plain lab and says so', async ({ page }) => {
  await page.goto(`${lms.url}/package/index.html?sco=memory`);
  await expect(page.getByTestId('lms-note')).toHaveText('Opened as the course activity for Concurrency & the memory model, but no course answered: your progress stays in this browser.');
  await page.getByTestId('card-spsc').click();
  await expect(page).toHaveURL(/\/package\/memory\/spsc\.html$/);
  await page.getByTestId('step').click();
  await expect(page.getByTestId('step-count')).toHaveText(/1/);
  await page.goto(`${lms.url}/package/index.html?sco=nope<b>`);
  await expect(page.getByTestId('lms-note')).toHaveText('This course activity names a section the lab does not have ("nope<b>"), so nothing is reported to the course; the lab opened as usual.');
});

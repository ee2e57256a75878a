// The slide API (src/shell/slide.rs) and the reveal.js plugin
// (static/stack-lab-reveal.js), driven by the real client: a reveal.js deck
// from npm, on another origin than the lab, framing two demos.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { test, expect } from './fixtures.js';

const reveal = new URL('../node_modules/reveal.js/dist/', import.meta.url);

// A deck of four slides: the second frames the TCP handshake and steps it
// on a fragment, the third frames MESI. Every message the deck gets is kept.
const deckPage = (lab) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>A lecture</title><link rel="icon" href="data:,">
<link rel="stylesheet" href="/reveal/reveal.css"><link rel="stylesheet" href="/reveal/theme/white.css"></head>
<body><div class="reveal"><div class="slides">
  <section><h2>Before</h2></section>
  <section><iframe id="handshake" title="TCP handshake" data-src="${lab}/net/handshake?embed=1" width="800" height="500"></iframe>
    <p class="fragment" data-stack-lab="step">One step</p></section>
  <section><iframe id="mesi" title="MESI" data-src="${lab}/cpu/mesi?embed=1" width="800" height="500"></iframe></section>
  <section><h2>After</h2></section>
</div></div>
<script src="/reveal/reveal.js"></script>
<script src="${lab}/static/stack-lab-reveal.js"></script>
<script>
  window.heard = [];
  addEventListener('message', (e) => window.heard.push(typeof e.data === 'string' ? JSON.parse(e.data) : e.data));
  Reveal.initialize({ plugins: [StackLab], hash: false, transition: 'none', controls: false, progress: false })
    .then(() => { window.deckReady = true; });
</script>
</body></html>`;

// The deck's own server, on the loopback address as the lab is (Chrome
// lets only such pages frame or fetch from it: Local Network Access), but
// at http://localhost:PORT: another origin and another site than the lab's
// http://127.0.0.1.
let deck;
test.beforeAll(async ({ baseURL }) => {
  const server = createServer(async (req, res) => {
    const { pathname } = new URL(req.url, 'http://localhost');
    const file = pathname.match(/^\/reveal\/([\w/.-]+\.(css|js))$/);
    if (pathname === '/deck.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(deckPage(baseURL));
    } else if (file && !file[1].includes('..')) {
      const type = file[2] === 'css' ? 'text/css' : 'text/javascript';
      res.writeHead(200, { 'content-type': type }).end(await readFile(new URL(file[1], reveal)));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  deck = { server, url: `http://localhost:${server.address().port}/deck.html` };
});
test.afterAll(() => deck.server.close());

/** Opens the deck. */
async function openDeck(page) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(deck.url);
  await page.waitForFunction(() => window.deckReady === true);
}

const slide = (page) => page.evaluate(() => Reveal.getIndices().h);

/** Asks the handshake frame `method`, as an object or (text) as its JSON string. */
const ask = (page, method, args = [], text = false) => page.evaluate(({ method, args, text }) => new Promise((resolve) => {
  const id = `t${Math.random()}`;
  const answered = (e) => {
    const reply = typeof e.data === 'string' ? JSON.parse(e.data) : e.data;
    if (reply.id !== id) return;
    removeEventListener('message', answered);
    resolve({ ...reply, asText: typeof e.data === 'string' });
  };
  addEventListener('message', answered);
  const message = { namespace: 'stack-lab', method, args, id };
  document.getElementById('handshake').contentWindow.postMessage(text ? JSON.stringify(message) : message, '*');
}), { method, args, text });

/** Waits for the deck to hear `event` from a frame with `step`, after `from` messages. */
const heardEvent = (page, event, step, from = 0) => page.waitForFunction(
  ({ event, step, from }) => window.heard.slice(from).some((m) => m.event === event && m.state.step === step),
  { event, step, from },
);

test('the deck keeps its keys inside a demo, steps it on a fragment, and finds it as it was left', async ({ page }) => {
  await openDeck(page);
  await page.keyboard.press('ArrowRight');
  const demo = page.frameLocator('#handshake');
  await expect(demo.getByTestId('step-count')).toHaveText('step 0');
  await heardEvent(page, 'ready', 0);

  // Focus inside the demo: its own keys step it…
  await demo.getByRole('heading', { level: 1 }).click();
  expect(await page.evaluate(() => document.activeElement.id)).toBe('handshake');
  await page.keyboard.press('ArrowRight');
  await expect(demo.getByTestId('step-count')).toHaveText('step 1');
  await page.keyboard.press('ArrowLeft');
  await expect(demo.getByTestId('step-count')).toHaveText('step 0');
  expect(await slide(page)).toBe(1);

  // …and the deck's go up to the deck: PageDown shows the fragment, which
  // steps the demo; the next PageDown leaves the slide.
  await page.keyboard.press('PageDown');
  await expect(demo.getByTestId('step-count')).toHaveText('step 1');
  expect(await slide(page)).toBe(1);
  const time = await demo.getByTestId('fig-time').locator('dd').textContent();
  await page.keyboard.press('PageDown');
  await expect.poll(() => slide(page)).toBe(2);
  await expect(page.frameLocator('#mesi').getByTestId('step-count')).toHaveText('step 0');
  // reveal.js unloaded the handshake frame when its slide stopped.
  await expect(page.locator('#handshake')).not.toHaveAttribute('src', /.*/);

  // Back on the slide, the frame reloads from the demo's latest link.
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => slide(page)).toBe(1);
  await expect(page.locator('#handshake')).toHaveAttribute('src', /embed=1/);
  await expect(demo.getByTestId('step-count')).toHaveText('step 1');
  await expect(demo.getByTestId('fig-time').locator('dd')).toHaveText(time);
});

test('every method of the API answers, as an object or as JSON text, and every change is told', async ({ page }) => {
  await openDeck(page);
  await page.evaluate(() => Reveal.slide(1));
  const demo = page.frameLocator('#handshake');
  await heardEvent(page, 'ready', 0);

  const start = await ask(page, 'state');
  expect(start.result.step).toBe(0);
  expect(start.result.playing).toBe(false);
  expect(start.result.link).toMatch(/\/net\/handshake\?s=v1\./);
  expect(start.result.status.length).toBeGreaterThan(0);
  for (const figure of start.result.status) {
    await expect(demo.getByTestId(`fig-${figure.key}`).locator('dd')).toHaveText(figure.value);
  }

  let from = await page.evaluate(() => window.heard.length);
  expect((await ask(page, 'step')).result.step).toBe(1);
  await expect(demo.getByTestId('step-count')).toHaveText('step 1');
  await heardEvent(page, 'stepped', 1, from);
  expect((await ask(page, 'step')).result.step).toBe(2);
  const two = (await ask(page, 'state')).result;

  expect((await ask(page, 'back')).result.step).toBe(1);
  expect((await ask(page, 'reset')).result.step).toBe(0);
  expect(await ask(page, 'back')).toMatchObject({ error: 'there is no step to go back to' });

  // A share link opens whole, or not at all.
  from = await page.evaluate(() => window.heard.length);
  expect((await ask(page, 'open', [two.link])).result).toEqual(two);
  await expect(demo.getByTestId('step-count')).toHaveText('step 2');
  await heardEvent(page, 'stepped', 2, from);
  const bad = await ask(page, 'open', ['v1.!!']);
  expect(bad.error).toMatch(/^the link's state does not open: /);
  expect((await ask(page, 'state')).result).toEqual(two);

  // Play and pause, at a speed from the control bar's list.
  expect((await ask(page, 'speed', [3])).error).toMatch(/0\.5, 1, 2, 4/);
  expect((await ask(page, 'speed', [4])).result).toBeDefined();
  await expect(demo.getByTestId('speed')).toHaveValue('4');
  from = await page.evaluate(() => window.heard.length);
  expect((await ask(page, 'play')).result.playing).toBe(true);
  await heardEvent(page, 'stepped', 3, from);
  const paused = await ask(page, 'pause');
  expect(paused.result.playing).toBe(false);
  await expect(demo.getByTestId('play')).toHaveText(/Play/);

  // A lesson stop opens in the frame, and focus stays with the deck.
  const stop = await ask(page, 'stop', [1]);
  expect(stop.result).toBeDefined();
  await expect(demo.getByTestId('lesson-title')).toBeVisible();
  expect(await page.evaluate(() => document.activeElement.tagName)).toBe('BODY');
  expect((await ask(page, 'stop', [99])).error).toMatch(/^this lesson has stops 1 to \d+$/);

  // Refusals say why; the text form is answered as text.
  expect((await ask(page, 'eval', ['alert(1)'])).error).toMatch(/^no method "eval"/);
  expect((await ask(page, 'step', [1])).error).toBe('"step" takes no arguments');
  // The plugin's own way to ask.
  const viaPlugin = await page.evaluate(() => StackLab.request(document.getElementById('handshake'), 'speed', 2));
  expect(viaPlugin.result.playing).toBe(false);
  await expect(demo.getByTestId('speed')).toHaveValue('2');
  const asText = await ask(page, 'state', [], true);
  expect(asText.asText).toBe(true);
  expect(asText.result.link).toMatch(/\/net\/handshake\?s=v1\./);
});

test('a thousand malformed messages change nothing, and the demo still steps', async ({ page }) => {
  await openDeck(page);
  await page.evaluate(() => Reveal.slide(1));
  const demo = page.frameLocator('#handshake');
  await heardEvent(page, 'ready', 0);
  const html = () => demo.locator('#app-root').evaluate((el) => el.outerHTML);
  const before = await html();

  const answers = await page.evaluate(() => {
    // Seeded, so a failure is reproducible.
    let seed = 12345;
    const rand = (n) => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return seed % n;
    };
    const script = ['<img src=x onerror=alert(1)>', '</script><script>alert(1)</script>', 'javascript:alert(1)', '{{7*7}}'];
    const junk = () => [
      undefined, null, NaN, Infinity, -1, 1.5, 2 ** 64, '', 'x'.repeat(100_000), [], {}, [[1]], { a: 1 }, true,
      script[rand(script.length)], 'step', 'stack-lab', Array(10_000).fill(1),
    ][rand(18)];
    const methods = ['step', 'back', 'reset', 'play', 'pause', 'state', 'speed', 'open', 'stop'];
    const messages = [];
    for (let i = 0; i < 1000; i += 1) {
      const kind = rand(8);
      let m;
      if (kind === 0) m = { namespace: ['Stack-Lab', 'reveal', 'stack-lab ', 5, null, {}][rand(6)], method: methods[rand(9)], args: [], id: i };
      else if (kind === 1) m = { namespace: 'stack-lab', method: junk(), args: [junk()], id: junk() };
      // A known method with arguments it does not take: refused, no change.
      else if (kind === 2) m = { namespace: 'stack-lab', method: methods[rand(6)], args: [junk()], id: i };
      else if (kind === 3) m = { namespace: 'stack-lab', method: ['speed', 'stop'][rand(2)], args: [junk(), junk()], id: i };
      else if (kind === 4) m = { namespace: 'stack-lab', method: 'open', args: [script[rand(4)]], id: i };
      else if (kind === 5) m = { namespace: 'stack-lab', method: script[rand(4)], args: junk(), id: i };
      else if (kind === 6) m = junk();
      else m = [`{"namespace":"stack-lab","method":"step"`, 'slide:start', '[]', '"stack-lab"', JSON.stringify({ namespace: 'stack-lab', method: 'stop', args: [0] }), 'x'.repeat(70_000)][rand(6)];
      messages.push(m);
    }
    const frame = document.getElementById('handshake').contentWindow;
    let answered = 0;
    const count = (e) => { if ((typeof e.data === 'string' ? e.data : JSON.stringify(e.data)).includes('"id"')) answered += 1; };
    addEventListener('message', count);
    for (const m of messages) frame.postMessage(m, '*');
    // Messages are handled in order: this one's answer comes after theirs.
    return new Promise((resolve) => {
      addEventListener('message', (e) => {
        if (e.data?.id === 'last') resolve({ answered, last: e.data });
      });
      frame.postMessage({ namespace: 'stack-lab', method: 'state', id: 'last' }, '*');
    });
  });
  expect(answers.last.result.step).toBe(0);
  expect(answers.answered).toBeGreaterThan(100);
  expect(await html()).toBe(before);
  await expect(demo.locator('#crash')).toBeHidden();

  expect((await ask(page, 'step')).result.step).toBe(1);
  await expect(demo.getByTestId('step-count')).toHaveText('step 1');
});

test('a page that is not framed has no API: a message to it does nothing', async ({ page }) => {
  await page.goto('/net/handshake');
  await expect(page.getByTestId('step-count')).toHaveText('step 0');
  await page.evaluate(() => window.postMessage({ namespace: 'stack-lab', method: 'step', id: 1 }, '*'));
  await page.getByTestId('step').click();
  await expect(page.getByTestId('step-count')).toHaveText('step 1');
});

// The strict Content Security Policy that scripts/csp.py puts into every
// document of the build: every document the server hands out carries it, and
// no page breaks it, Trusted Types included, on any route, before or after a Step.
import { test, expect } from './fixtures.js';
import { demoRoutes } from './routes.js';

const demos = demoRoutes();
const routes = [
  { path: '/', demo: false },
  { path: '/nic/no-such-demo', demo: false },
  { path: '/nic/descriptor-ring?embed=1', demo: true },
  ...demos.map((path) => ({ path, demo: true })),
];

/** Runs in the page before any of its own scripts: each violation as text. */
function recordViolations() {
  window.cspViolations = [];
  document.addEventListener('securitypolicyviolation', (e) => {
    window.cspViolations.push(
      `${e.effectiveDirective} (${e.disposition}) blocked ${e.blockedURI || 'inline'}` +
        ` at ${e.sourceFile}:${e.lineNumber}: ${e.sample}`,
    );
  });
}

/** The violations the page has seen, with the console's and uncaught errors' word on them. */
async function violations(page, messages) {
  return [...(await page.evaluate(() => window.cspViolations)), ...messages];
}

const aboutPolicy = /Content Security Policy|Trusted ?(HTML|Script|Type)/i;

for (const { path, demo } of routes) {
  test(`${path} breaks no rule of its Content Security Policy`, async ({ page }) => {
    await page.addInitScript(recordViolations);
    const messages = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error' && aboutPolicy.test(msg.text())) messages.push(`console: ${msg.text()}`);
    });
    page.on('pageerror', (err) => {
      if (aboutPolicy.test(err.message)) messages.push(`pageerror: ${err.message}`);
    });
    await page.goto(path);
    // Ready, or blocked: a refused write can keep the page from ever
    // drawing, and then the violation is what to report.
    const ready = demo ? page.getByTestId('step') : page.locator('#app-root h1').first();
    await expect.poll(async () => (await violations(page, messages)).length > 0 || ready.isVisible())
      .toBe(true);
    expect(await violations(page, messages)).toEqual([]);

    if (demo && await ready.isEnabled()) {
      const before = await page.getByTestId('narration-latest').textContent();
      await ready.click();
      await expect(page.getByTestId('narration-latest')).not.toHaveText(before);
    }
    // A violation event is a task of its own: let the page's event loop turn
    // once more, so any the Step caused has been delivered.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 0)));
    expect(await violations(page, messages)).toEqual([]);
  });
}

// What the server hands out: the site's own document, each demo's own
// document (scripts/demo-pages.py; serve.mjs serves it for /nic/napi too, as
// GitHub Pages does) and the static host's fallback, 404.html.
const documents = ['/', '/404.html', ...demos.map((path) => `${path}.html`)];

test('every document the site serves carries the policy', async ({ request }) => {
  expect(demos.length).toBeGreaterThanOrEqual(29);
  for (const path of documents) {
    const response = await request.get(path);
    expect(response.status(), path).toBe(200);
    const html = await response.text();
    if (path.endsWith('.html') && path !== '/404.html') {
      // The demo's own document (it preloads its module), not index.html served instead.
      const module = path.split('/').pop().replace('.html', '').replaceAll('-', '_');
      expect(html, path).toContain(`-${module}.wasm"`);
    }
    const policies = [...html.matchAll(/<meta http-equiv="Content-Security-Policy" content="([^"]*)"/g)];
    expect(policies.length, `${path}: one policy`).toBe(1);
    const policy = policies[0][1];
    // First in <head>, right after <meta charset>: it governs only what comes after it.
    expect(html, path).toMatch(/<head>\s*<meta charset="utf-8" \/>\s*<meta http-equiv="Content-Security-Policy"/);
    expect(policy, path).toContain("require-trusted-types-for 'script'");
    expect(policy, path).toMatch(/(^|; )script-src 'self' 'wasm-unsafe-eval' /);
    expect(policy, path).not.toMatch(/'unsafe-inline'|'unsafe-eval'|frame-ancestors/);
  }
});

test('a moved group is moved through its style object, which the policy allows', async ({ page }) => {
  await page.goto('/cpu/numa');
  await expect(page.getByTestId('step')).toBeVisible();
  const moved = page.locator('svg g[style*="translate"]').first();
  await expect(moved).toBeAttached();
  const [applied, computed] = await moved.evaluate((g) => [g.style.transform, getComputedStyle(g).transform]);
  expect(applied).toMatch(/^translate\(/);
  expect(computed).not.toBe('none');
});

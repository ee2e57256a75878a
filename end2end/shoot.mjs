// Screenshots for human review: node shoot.mjs <outdir> <path> [<path>...]
// Each path at desktop (1920×1080), projector (1024×768) and phone (390×844).
// Needs the site served on 127.0.0.1:$E2E_PORT (default 4173; node serve.mjs PORT). Prints console problems.
import { chromium } from '@playwright/test';
import { chromiumArgs } from './playwright.config.js';

const [outdir, ...paths] = process.argv.slice(2);
const port = Number(process.env.E2E_PORT ?? 4173);
const sizes = { desktop: [1920, 1080], projector: [1024, 768], phone: [390, 844] };
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: chromiumArgs });
for (const path of paths) {
  for (const [name, [width, height]] of Object.entries(sizes)) {
    const page = await browser.newPage({ viewport: { width, height } });
    page.on('console', (m) => { if (['error', 'warning'].includes(m.type())) console.log(`${path} ${name} ${m.type()}: ${m.text()}`); });
    page.on('pageerror', (e) => console.log(`${path} ${name} pageerror: ${e.message}`));
    await page.goto(`http://127.0.0.1:${port}${path}`);
    await page.waitForSelector('#app-root h1, #crash:not([hidden])');
    // A lesson's panel arrives with its own module, after the demo.
    if (/[?&]lesson=/.test(path)) await page.waitForSelector('[data-testid="lesson"]');
    const file = `${outdir}/${path.replace(/[^a-z0-9]+/gi, '_')}_${name}.png`;
    await page.screenshot({ path: file, fullPage: process.env.FULL === '1' });
    console.log(file);
    await page.close();
  }
}
await browser.close();

// Measures, on every demo page at a viewport, the smallest rendered text in
// the pictures and text boxes that collide. Usage: node legible.mjs W H [filter]
import { chromium } from '@playwright/test';
import { demoRoutes } from './tests/routes.js';
import { chromiumArgs } from './playwright.config.js';
const [w, h, filter = ''] = process.argv.slice(2);
const port = process.env.E2E_PORT ?? 4900;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: chromiumArgs });
const page = await browser.newPage({ viewport: { width: Number(w), height: Number(h) }, bypassCSP: Boolean(process.env.CSS) });
const rows = [];
for (const path of demoRoutes().filter((p) => p.includes(filter))) {
  await page.goto(`http://127.0.0.1:${port}${path}${process.env.Q ?? ''}`);
  await page.getByTestId('narration-latest').waitFor();
  if (process.env.CSS) await page.addStyleTag({ path: process.env.CSS });
  await page.waitForTimeout(300);
  const r = await page.evaluate(() => {
    let min = 99; let minText = '';
    const hits = []; const out = [];
    // A figure set aside (a framed page shows one at a time) is not drawn.
    const drawn = [...document.querySelectorAll('svg.scene')].filter((s) => s.getBoundingClientRect().width > 0);
    for (const svg of drawn) {
      const vb = svg.viewBox.baseVal; const box = svg.getBoundingClientRect();
      const scale = Math.min(box.width / vb.width, box.height / vb.height);
      const boxes = [];
      for (const t of svg.querySelectorAll('text')) {
        if (!t.textContent.trim()) continue;
        const px = parseFloat(getComputedStyle(t).fontSize) * scale;
        if (px < min) { min = px; minText = t.textContent.slice(0, 30); }
        const b = t.getBoundingClientRect();
        if (b.width === 0) continue;
        boxes.push([b, t.textContent.slice(0, 24)]);
        if (b.left < box.left - 1 || b.right > box.right + 1) out.push(t.textContent.slice(0, 24));
      }
      for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
        const [a, an] = boxes[i]; const [b, bn] = boxes[j];
        const ox = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const oy = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (ox > 2 && oy > 2) hits.push(`${an}|${bn}`);
      }
    }
    const step = document.querySelector('[data-testid=step]')?.getBoundingClientRect();
    const svgs = drawn.map((s) => s.getBoundingClientRect());
    const firstWhole = svgs.length > 0 && svgs[0].bottom <= innerHeight && svgs[0].right <= innerWidth;
    const pictureBottom = Math.max(...svgs.map((b) => b.bottom));
    const pictureRight = Math.max(...svgs.map((b) => b.right));
    return { min: Math.round(min * 10) / 10, minText, hits, out, firstWhole, figures: svgs.length,
      wholePicture: pictureBottom <= innerHeight && pictureRight <= innerWidth,
      stepVisible: step ? step.bottom <= innerHeight && step.top >= 0 : false,
      sideways: document.documentElement.scrollWidth > innerWidth };
  });
  rows.push({ path, ...r });
  console.log(path.padEnd(26), String(r.min).padStart(5), r.minText.padEnd(30), 'hits', r.hits.length, 'out', r.out.length, r.wholePicture ? 'whole' : 'PART', r.firstWhole ? 'first' : 'FIRST-CUT', r.figures, r.stepVisible ? 'step' : 'NOSTEP', r.sideways ? 'SIDEWAYS' : '');
  if (process.env.V) { for (const x of r.hits) console.log('   hit', x); for (const x of r.out) console.log('   out', x); }
}
const mins = rows.map((r) => r.min);
console.log('whole', rows.filter((r) => r.wholePicture).length, 'first whole', rows.filter((r) => r.firstWhole).length, 'step', rows.filter((r) => r.stepVisible).length, 'of', rows.length);
console.log('min', Math.min(...mins), 'under12', rows.filter((r) => r.min < 12).length, 'under14', rows.filter((r) => r.min < 14).length, 'hits', rows.reduce((s, r) => s + r.hits.length, 0), 'out', rows.reduce((s, r) => s + r.out.length, 0));
await browser.close();

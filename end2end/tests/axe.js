// The accessibility check every demo's spec runs: axe-core (pinned in
// package-lock.json) over the whole page, failing on any serious or
// critical violation, each listed with the elements it names.
import AxeBuilder from '@axe-core/playwright';
import { expect } from './fixtures.js';

export async function expectNoSeriousAxe(page) {
  const results = await new AxeBuilder({ page }).analyze();
  const bad = results.violations.filter((v) => ['serious', 'critical'].includes(v.impact));
  expect(bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target).join(' ')}`)).toEqual([]);
}

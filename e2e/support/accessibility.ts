// axe-core on the page as it is now: the serious and critical violations, each in words a failure message shows.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';

/** The serious or critical violations on the page, each as "<screen>: <rule> (<impact>) <elements>". */
export async function seriousViolations(page: Page, screen: string): Promise<string[]> {
  // Only the violations: axe's default also reports every node that passed (with its selector and HTML), which the
  // page builds and the protocol carries for nothing here.
  const { violations } = await new AxeBuilder({ page }).options({ resultTypes: ['violations'] }).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${screen}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Fails on any serious or critical accessibility violation of the page as it is now. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  expect(await seriousViolations(page, screen)).toEqual([]);
}

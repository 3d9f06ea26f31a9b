import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

export const WCAG = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** Serious and critical axe violations (WCAG 2.0/2.1 A and AA) on the page, one line each. */
export async function seriousViolations(page: Page): Promise<string[]> {
  // label-content-name-mismatch (WCAG 2.5.3) is experimental in axe, so off unless asked for.
  const results = await new AxeBuilder({ page }).withTags(WCAG).options({ rules: { 'label-content-name-mismatch': { enabled: true } } }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help}: ${v.nodes.map((n) => `${n.target.join(' ')} — ${n.failureSummary ?? ''}`).join('; ')}`);
}

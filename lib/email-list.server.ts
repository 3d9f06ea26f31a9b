/**
 * Lists of emails and domains (RUNPAD_ALLOWED_EMAILS, RUNPAD_ADMIN_EMAILS): comma- or
 * space-separated entries, each an address (`ana@team.example`) or a domain (`@team.example` or
 * `team.example`). Compared lower-cased; a domain matches exactly, not its subdomains.
 */
import 'server-only';
export function parseEmailList(value: string | undefined): string[] {
  return (value ?? '')
    .split(/[\s,]+/)
    .map((entry) => entry.trim().toLowerCase())
    .filter(Boolean);
}

export function emailOnList(email: string, list: readonly string[]): boolean {
  const address = email.trim().toLowerCase();
  const at = address.lastIndexOf('@');
  if (at <= 0) return false;
  const domain = address.slice(at + 1);
  return list.some((entry) => entry === address || (!entry.includes('@') && entry === domain) || (entry.startsWith('@') && entry.slice(1) === domain));
}

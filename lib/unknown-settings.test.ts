/**
 * A misspelt setting is not silently ignored: every RUNPAD_* name Runpad does not know is named at
 * start and by `npm run doctor`, with the known name nearest to it (RUNPAD_ACESS=invite would
 * otherwise leave the instance open).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

vi.mock('server-only', () => ({}));

afterEach(() => vi.unstubAllEnvs());

const config = () => import('./config.server');

/** Misspellings a person makes of `name`: a letter dropped, doubled, swapped with the next, changed; lower case; a space or a BOM around it. */
function misspellings(name: string): string[] {
  const tail = name.slice('RUNPAD_'.length);
  const at = Math.max(1, Math.floor(tail.length / 2));
  const swapped = tail.slice(0, at - 1) + tail[at] + tail[at - 1] + tail.slice(at + 1);
  return [
    `RUNPAD_${tail.slice(0, at)}${tail.slice(at + 1)}`,
    `RUNPAD_${tail.slice(0, at)}${tail[at]}${tail.slice(at)}`,
    `RUNPAD_${swapped}`,
    `RUNPAD_${tail.slice(0, at)}${tail[at] === 'Q' ? 'X' : 'Q'}${tail.slice(at + 1)}`,
    name.toLowerCase(),
    ` ${name}`,
    `${name} `,
    `\uFEFF${name}`,
  ].filter((spelt) => spelt !== name);
}

describe('unknown RUNPAD_* settings', () => {
  it('names RUNPAD_ACESS=invite with RUNPAD_ACCESS, and never repeats a value', async () => {
    const { unknownSettings } = await config();
    const warnings = unknownSettings({ RUNPAD_ACESS: 'invite', RUNPAD_OIDC_CLIENT_SECRT: 'hunter2-very-secret', PATH: '/usr/bin', RUNPAD_ACCESS: 'open' });
    expect(warnings.map((w) => w.variable)).toEqual(['RUNPAD_ACESS', 'RUNPAD_OIDC_CLIENT_SECRT']);
    expect(warnings[0].fix).toContain('RUNPAD_ACCESS');
    expect(warnings[1].fix).toContain('RUNPAD_OIDC_CLIENT_SECRET');
    expect(JSON.stringify(warnings)).not.toContain('hunter2');
    expect(JSON.stringify(warnings)).not.toContain('invite');
  });

  it('suggests the intended name for every misspelling of every known setting', async () => {
    const { unknownSettings, KNOWN_RUNPAD_SETTINGS } = await config();
    for (const name of KNOWN_RUNPAD_SETTINGS) {
      for (const spelt of misspellings(name)) {
        const [warning, ...rest] = unknownSettings({ [spelt]: 'x' });
        expect(rest, spelt).toEqual([]);
        expect(warning?.variable, JSON.stringify(spelt)).toBe(JSON.stringify(spelt).slice(1, -1));
        expect(warning?.fix, JSON.stringify(spelt)).toContain(`did you mean ${name}?`);
      }
    }
  });

  it('says nothing of a name far from every setting but names it, and nothing of known names or other variables', async () => {
    const { unknownSettings, KNOWN_RUNPAD_SETTINGS } = await config();
    expect(unknownSettings(Object.fromEntries(KNOWN_RUNPAD_SETTINGS.map((name) => [name, 'x'])))).toEqual([]);
    expect(unknownSettings({ HOME: '/root', NODE_ENV: 'production', RUNPADDING: '1' })).toEqual([]);
    const [far] = unknownSettings({ RUNPAD_ZQXWV: '1' });
    expect(far.variable).toBe('RUNPAD_ZQXWV');
    expect(far.fix).not.toContain('did you mean');
    expect(far.fix).toContain('docs/OPERATING.md');
  });

  it('knows every RUNPAD_* name the code and the operator guide use', async () => {
    const { unknownSettings } = await config();
    const root = path.resolve(__dirname, '..');
    const used = new Set<string>();
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (/\.(ts|tsx|mjs|js|sh|ya?ml|conf)$|^Dockerfile|\.env\.example$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
          const text = fs.readFileSync(full, 'utf8');
          // A constant of the code named RUNPAD_* is not a setting.
          const declared = new Set(Array.from(text.matchAll(/\b(?:const|let|var)\s+(RUNPAD_\w+)/g), (m) => m[1]));
          for (const match of text.matchAll(/\bRUNPAD_[A-Z0-9_]*[A-Z0-9]\b/g)) if (!declared.has(match[0])) used.add(match[0]);
        }
      }
    };
    for (const dir of ['app', 'components', 'lib', 'scripts', 'deploy', 'e2e']) walk(path.join(root, dir));
    for (const file of ['playwright.config.ts', 'next.config.ts', 'instrumentation.ts', 'proxy.ts', '.env.example']) {
      if (fs.existsSync(path.join(root, file))) for (const match of fs.readFileSync(path.join(root, file), 'utf8').matchAll(/\bRUNPAD_[A-Z0-9_]*[A-Z0-9]\b/g)) used.add(match[0]);
    }
    for (const match of fs.readFileSync(path.join(root, 'docs/OPERATING.md'), 'utf8').matchAll(/^\| `(RUNPAD_[A-Z0-9_]*[A-Z0-9])`/gm)) used.add(match[1]); // the guide's table of variables
    expect(used.size).toBeGreaterThan(40);
    expect(used).toContain('RUNPAD_TOKENS_PER_DAY');
    const unknown = unknownSettings(Object.fromEntries([...used].map((name) => [name, "1"]))).map((w) => w.variable);
    expect(unknown).toEqual([]);
  });

  it('is reported by the doctor beside the problems, without stopping the start', async () => {
    vi.stubEnv('RUNPAD_ACESS', 'invite');
    vi.resetModules();
    const { runDoctor } = await import('./health/doctor.server');
    const report = await runDoctor({ database: false });
    expect(report.problems).toEqual([]);
    expect(report.warnings.map((w) => w.variable)).toEqual(['RUNPAD_ACESS']);
    const { formatWarnings } = await import('./config-problems.server');
    expect(formatWarnings(report.warnings, 'runpad')).toMatch(/RUNPAD_ACESS: not a setting Runpad knows, so it is ignored[\s\S]*did you mean RUNPAD_ACCESS\?/);
  });
});

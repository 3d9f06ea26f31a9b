/**
 * What is wrong with a configuration, in words an operator can act on: each problem names the
 * variable, what is wrong with it and what to set. lib/config.server.ts collects them all at once (not
 * the first only); `npm start` and `npm run doctor` print them and exit non-zero
 * (scripts/doctor.mjs), pages and /api/health name them. Pure: no environment, no server imports.
 */
import 'server-only';
import type { z } from 'zod';

export type ConfigProblem = {
  /** The variable to change (or the variables, "A / B"). */
  variable: string;
  /** What is wrong, never a secret's value. */
  problem: string;
  /** What to set. */
  fix: string;
};

/** getConfig() on a configuration that cannot work: every problem, each in words. */
export class ConfigurationError extends Error {
  readonly problems: ConfigProblem[];
  constructor(problems: ConfigProblem[]) {
    super(`Invalid configuration: ${problems.map(problemLine).join(' ')}`);
    this.name = 'ConfigurationError';
    this.problems = problems;
  }
}

/** One line: "VARIABLE: what is wrong. Fix: what to set." */
export function problemLine(problem: ConfigProblem): string {
  return `${problem.variable}: ${withStop(problem.problem)} Fix: ${withStop(problem.fix)}`;
}

function withStop(text: string): string {
  return /[.!?)]$/.test(text) ? text : `${text}.`;
}

/** The problems as `npm start` and `npm run doctor` print them, under `heading`. */
export function formatProblems(problems: ConfigProblem[], heading: string): string {
  const lines = problems.map((p) => `  - ${p.variable}: ${withStop(p.problem)}\n    Fix: ${withStop(p.fix)}`);
  return `${heading} (docs/OPERATING.md, "Troubleshooting"):\n${lines.join('\n')}\n`;
}

/** Settings that are ignored (unknown names), as `npm start` and `npm run doctor` print them: the start goes on. */
export function formatWarnings(warnings: ConfigProblem[], heading: string): string {
  if (warnings.length === 0) return '';
  const lines = warnings.map((w) => `  - ${w.variable}: ${withStop(w.problem)}\n    Fix: ${withStop(w.fix)}`);
  return `${heading}: ${warnings.length === 1 ? '1 setting' : `${warnings.length} settings`} ignored (docs/OPERATING.md, "Configuration"):\n${lines.join('\n')}\n`;
}

/** "1 problem", "3 problems". */
export function countProblems(problems: ConfigProblem[]): string {
  return problems.length === 1 ? '1 problem' : `${problems.length} problems`;
}

/** What a page or an API answer says to anyone while the configuration cannot work. */
export function misconfiguredMessage(problems: ConfigProblem[]): string {
  return `This Runpad cannot work until whoever runs it changes its configuration: ${problems.map(problemLine).join(' ')}`;
}

/** Variables whose values may be or carry secrets (a URL's password): a problem never repeats their value. */
const SECRET = /SECRET|KEY|TOKEN|PASSWORD|URL/;

/** One zod issue of the environment schema as a problem: the variable, what is wrong, what to set. */
export function envIssueProblem(issue: z.core.$ZodIssue, value: unknown): ConfigProblem {
  const variable = String(issue.path[0] ?? '(environment)');
  const shown = typeof value === 'string' && !SECRET.test(variable) ? ` (it is "${value.length > 80 ? `${value.slice(0, 80)}…` : value}")` : '';
  switch (issue.code) {
    case 'invalid_value':
      return { variable, problem: `not one of the values it takes${shown}`, fix: `set one of ${issue.values.map(String).join(', ')}, or leave it empty for the default` };
    case 'invalid_format':
      // A URL of a scheme the variable does not take says so in the schema's own words.
      if (issue.format === 'url' && issue.message !== 'Invalid URL') return { variable, problem: `${issue.message}${shown}`, fix: 'set a URL of that kind (.env.example shows one), or leave it empty' };
      return issue.format === 'url'
        ? { variable, problem: `not a full URL${shown}`, fix: 'set a full URL with its scheme, such as https://host.example/ (or leave it empty)' }
        : { variable, problem: `${issue.message}${shown}`, fix: 'correct it or leave it empty' };
    case 'too_small':
      return issue.origin === 'string'
        ? { variable, problem: issue.message, fix: `set a value of at least ${String(issue.minimum)} characters, or leave it empty` }
        : { variable, problem: `too small${shown}`, fix: `set a whole number of at least ${String(issue.minimum)}, or leave it empty for the default` };
    case 'too_big':
      return { variable, problem: `too large${shown}`, fix: `set a whole number of at most ${String(issue.maximum)}, or leave it empty for the default` };
    case 'invalid_type':
      return { variable, problem: `not a ${issue.expected === 'int' || issue.expected === 'number' ? 'whole number' : issue.expected}${shown}`, fix: 'set a whole number such as 20, or leave it empty for the default' };
    default:
      return { variable, problem: `${issue.message}${shown}`, fix: 'correct it or leave it empty for the default' };
  }
}

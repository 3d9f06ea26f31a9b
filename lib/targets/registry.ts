/**
 * The targets code can be written for: one line each (ARCHITECTURE.md, "Targets"). Server-safe:
 * metadata only (lib/targets/target.ts); the page's runners are listed in lib/targets/runners.client.ts.
 * Everything that lists targets (tools, blocks mode, the system prompt, stored run parts, Copy,
 * notebook and script export, restore) iterates this list.
 */
import { graphviz } from './graphviz/meta';
import { javascript } from './javascript/meta';
import { python } from './python/meta';
import { r } from './r/meta';
import { sql } from './sql/meta';
import type { TargetDefinition } from './target';
import type { TargetConfig } from './engine';

export { codeInputSchema, type CodeInput } from './target';

export const TARGET_LIST = [
  python,
  sql,
  graphviz,
  r,
  javascript,
] as const;

export type TargetId = (typeof TARGET_LIST)[number]['id'];
export type Target = TargetDefinition<TargetId>;

/** Every target's id, for schemas keyed by target (a request's package sources). */
export const TARGET_IDS = TARGET_LIST.map((target) => target.id) as [TargetId, ...TargetId[]];

export const TARGETS = Object.fromEntries(TARGET_LIST.map((target) => [target.id, target])) as { readonly [Id in TargetId]: Target };

/** Every worker script a target runs in, with its Content-Security-Policy (served by lib/assets/serve-engine-assets.server.ts). */
export const TARGET_WORKERS = TARGET_LIST.flatMap((target) => target.workers);

/** The scripts that start the targets' engines with the page, as its HTML arrives (components/chat/engine-boot.server.tsx). */
export function engineBootScripts(config: TargetConfig): string[] {
  return TARGET_LIST.flatMap((target) => (target.bootScript ? [target.bootScript(config)] : []));
}

/** The `tool-<name>` message part types of code runs, one per target. */
export const CODE_PART_TYPES = TARGET_LIST.map((target) => `tool-${target.toolName}` as const);

/** The target of a tool name or a `tool-<name>` part type, or null. */
export function targetOf(nameOrPartType: string): Target | null {
  const name = nameOrPartType.startsWith('tool-') ? nameOrPartType.slice('tool-'.length) : nameOrPartType;
  return TARGET_LIST.find((target) => target.toolName === name) ?? null;
}

/** Whether a message part is a code run of any target. */
export function isCodePartType(type: string): boolean {
  return type.startsWith('tool-') && targetOf(type) !== null;
}

/** The target a fenced block's info string runs as (its first word, any case), or null. */
export function targetOfBlockTag(info: string): Target | null {
  const word = info.trim().split(/\s+/, 1)[0].toLowerCase();
  return TARGET_LIST.find((target) => target.blockTags.includes(word)) ?? null;
}

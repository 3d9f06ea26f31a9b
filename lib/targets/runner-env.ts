/**
 * What a page gives the runners it makes (browser-only): the engines targets may share. Today
 * that is the conversation's Python interpreter, which Python and SQL both run in.
 */
import type { Kernel } from '@/lib/runtime/kernel';

export type RunnerEnv = {
  /** The page's Python interpreter (one per conversation or share re-run), made on first need. */
  interpreter: () => Kernel;
};

/**
 * What a page gives the runners it makes (browser-only): the engines targets may share. Today
 * that is the conversation's Python interpreter, which Python and SQL both run in.
 */
import type { Kernel } from '@/lib/targets/python/kernel.client';

/** Where the page's R (lib/targets/r) loads webR from and installs packages from (the client config). */
export type RLocation = { webrBasePath: string; rPackageRepoUrl: string };

export type RunnerEnv = {
  /** The page's Python interpreter (one per conversation or share re-run), made on first need. */
  interpreter: () => Kernel;
  /** Where R's worker finds webR and R packages. */
  webr: RLocation;
};

/** The R target (server-safe): R (webR) in a worker of its own, with its own state. */
import { rWorkerCsp, webrWorkerCsp } from '@/lib/security/csp';
import { codeInputSchema, defineTarget } from '../target';
import { R_PROGRAM, rCellSource } from './notebook';

export const r = defineTarget({
  id: 'r',
  toolName: 'r',
  inputSchema: codeInputSchema,
  name: 'R',
  label: 'R · webR',
  fence: 'r',
  blockTags: ['r'],
  description:
    "Run R code in the user's browser (webR, R 4.6) and get back what it printed, its warnings and errors, its plots and its tables. " +
    'Use R when the user asks for R or for classical statistics (lm, glm, t.test, anova, summary). State persists between R calls (separate from Python). ' +
    'The base library is available: base, stats, graphics, grDevices, utils, methods, grid, datasets. Plots (plot, hist, boxplot, barplot) are captured automatically; ' +
    'a data frame or matrix left as the last value is shown as a table; print() what matters. Files uploaded by the user are in /data (read.csv("/data/name.csv")); ' +
    'write files for the user to /output/. Packages beyond the base library (ggplot2, dplyr) may be unavailable: prefer base R.',
  prompt:
    "runs R (webR) with its own state, separate from Python's. Use it when the user asks for R, or for classical statistics where R's output is the reference (summary(lm(...)), glm, t.test, anova). Base R is there (stats, graphics, grDevices, utils, grid, datasets); plots from plot(), hist(), boxplot() are captured as images; a data frame or matrix left as the last value is shown as a table; /data files are readable (`read.csv('/data/sales.csv')`).",
  // The page asks R's repository once, when R starts (lib/targets/r/engine/r.worker.ts), and sends the answer with each request.
  packagesPrompt: {
    unknown: 'Packages beyond base R are downloaded from the R package repository on library() when it answers; when it does not, library() fails at once saying so: then do not retry, use base R.',
    reachable: 'Packages beyond base R (ggplot2, dplyr…) are downloaded from the R package repository on library(); the first library() of each takes a moment.',
    unreachable:
      "The R package repository does not answer from the user's browser right now, so only base R is available: do not call library() or install.packages() for other packages (ggplot2, dplyr…); use base R (graphics for plots, stats for models, utils for files).",
  },
  mimeTypes: ['image/png', 'text/plain', 'application/vnd.dataresource+json'],
  stateful: true,
  engine: 'webr',
  replay: 'replay',
  notebook: {
    cellSource: rCellSource,
    readsFiles: true,
    program: R_PROGRAM,
    // An R-only conversation downloads as an .R script of its R as written.
    script: { extension: '.R', contentType: 'text/x-r-source; charset=utf-8', label: 'R script (.R)', kind: 'an R script' },
  },
  // The R worker (webR's "main thread") and webR's own worker, where R runs.
  workers: [
    { script: () => '/workers/r.worker.mjs', csp: (origin, settings) => rWorkerCsp(origin, settings.webrBasePath, settings.rPackageRepoUrl) },
    { script: (settings) => `${settings.webrBasePath}webr-worker.js`, csp: (origin, settings) => webrWorkerCsp(origin, settings.webrBasePath, settings.rPackageRepoUrl) },
  ],
  diagrams: false,
});

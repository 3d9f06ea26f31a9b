/**
 * The package notice's words (components/chat/package-source-notice.tsx), plain code so a test
 * reads them: which package sources do not answer, named by host, and what still works. Python's
 * source is asked once Python is up; R's repository when R starts (its first run).
 */
export type UnreachableSources = {
  /** The host of Python's package source, when it does not answer. */
  python?: string;
  /** The host of R's package repository, when it does not answer. */
  r?: string;
};

const PYTHON_PACKAGES = 'Extra Python packages (numpy, pandas, matplotlib…)';
const R_PACKAGES = 'extra R packages (ggplot2, dplyr…)';
const STILL_WORKS = 'tables, interactive charts, SQL and diagrams still work';

/** Null when every source answers (or has not been asked). */
export function packageNoticeText({ python, r }: UnreachableSources): string | null {
  if (python && r) {
    const hosts = python === r ? `${python} isn’t answering` : `${python} and ${r} aren’t answering`;
    return `${PYTHON_PACKAGES} and ${R_PACKAGES} can’t be downloaded right now: ${hosts}. Code still runs with Python’s standard library and base R, and ${STILL_WORKS}.`;
  }
  if (python) return `${PYTHON_PACKAGES} can’t be downloaded right now: ${python} isn’t answering. Code still runs with Python’s standard library, and ${STILL_WORKS}.`;
  if (r) return `Extra R packages (ggplot2, dplyr…) can’t be downloaded right now: ${r} isn’t answering. R code still runs with base R (stats, graphics, utils).`;
  return null;
}

/** The notice's one line (the words above are its details); null when every source answers. */
export function packageNoticeSummary({ python, r }: UnreachableSources): string | null {
  if (python && r) return 'Extra Python and R packages can’t be downloaded';
  if (python) return 'Extra Python packages can’t be downloaded';
  if (r) return 'Extra R packages can’t be downloaded';
  return null;
}

/** A package source's host for the notice; a relative URL is this site's own mirror. */
export function sourceHost(url: string, fallback: string): string {
  return URL.canParse(url) ? new URL(url).host : fallback;
}

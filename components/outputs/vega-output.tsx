'use client';

import { useEffect, useMemo, useRef, useState } from 'react';
import { embedOptions, loadVega } from '@/lib/charts/load-vega.client';
import { noNetworkLoader } from '@/lib/charts/no-network-loader.client';
import { findUrls, fittedSpec, safeSpec, urlRefusal, type ChartSpec } from '@/lib/charts/vegalite';

type Drawn = { spec: ChartSpec; state: 'rendered' } | { spec: ChartSpec; state: 'failed'; message: string };

/**
 * vega-embed opens its actions menu (Save as PNG/SVG) from a <summary> that holds only an icon,
 * which screen readers announce without a name (axe: summary-name). Name it, hide the icon.
 */
function nameActionsMenu(element: HTMLElement) {
  const summary = element.querySelector('details > summary');
  if (!summary) return;
  summary.setAttribute('aria-label', 'Chart actions');
  summary.querySelector('svg')?.setAttribute('aria-hidden', 'true');
}

/**
 * An interactive Vega-Lite chart (`application/vnd.vegalite.v5+json` / `v6+json`), drawn with
 * vega-embed, which is loaded only when a chart is shown. It runs under the page's CSP (no
 * 'unsafe-eval': expressions are interpreted, lib/charts/load-vega.client.ts) and loads nothing: data
 * must be in the spec, and a spec that names a URL is not drawn and says so. Zoom, pan and
 * filtering are there only when the spec declares them (selections and params).
 */
export function VegaOutput({ spec }: { spec: ChartSpec }) {
  const ref = useRef<HTMLDivElement>(null);
  const urls = useMemo(() => findUrls(spec), [spec]);
  const [drawn, setDrawn] = useState<Drawn | null>(null);

  useEffect(() => {
    const element = ref.current;
    if (!element || urls.length > 0) return;
    let cancelled = false;
    let finalize: (() => void) | null = null;
    void (async () => {
      try {
        const modules = await loadVega();
        if (cancelled) return;
        const { loader, refused } = noNetworkLoader();
        const result = await modules.embed(element, fittedSpec(safeSpec(spec)) as Parameters<typeof modules.embed>[1], embedOptions(modules, loader));
        if (cancelled) {
          result.finalize();
          return;
        }
        finalize = result.finalize;
        nameActionsMenu(element);
        setDrawn(refused.length > 0 ? { spec, state: 'failed', message: urlRefusal(refused) } : { spec, state: 'rendered' });
      } catch (error) {
        if (!cancelled) setDrawn({ spec, state: 'failed', message: `This chart could not be drawn: ${error instanceof Error ? error.message : String(error)}` });
      }
    })();
    return () => {
      cancelled = true;
      finalize?.();
    };
  }, [spec, urls]);

  const current = drawn?.spec === spec ? drawn : null;
  const state = urls.length > 0 ? 'failed' : (current?.state ?? 'rendering');
  const message = urls.length > 0 ? urlRefusal(urls) : current?.state === 'failed' ? current.message : null;
  return (
    <figure className="my-2 max-w-full overflow-x-auto" data-output="vegalite" data-chart-state={state} aria-busy={state === 'rendering'}>
      {/* vega-embed owns this element's children; React leaves it empty. */}
      <div ref={ref} className={state === 'failed' ? 'hidden' : 'rounded border border-zinc-200 bg-white p-2 dark:border-zinc-700'} />
      {state === 'rendering' && <p className="text-xs text-zinc-500 dark:text-zinc-400">Drawing the chart…</p>}
      {message && (
        <p role="alert" className="rounded border border-red-200 bg-red-50 p-2 text-sm text-red-800 dark:border-red-900 dark:bg-red-950 dark:text-red-200">
          {message}
        </p>
      )}
    </figure>
  );
}

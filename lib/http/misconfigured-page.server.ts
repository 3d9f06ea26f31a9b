/**
 * The page every address answers while the configuration cannot work (proxy.ts): 503, what is
 * wrong and who must fix it, each problem with its variable and what to set (never a value that
 * may be a secret: lib/config-problems.server.ts). A production server refuses to start on such a
 * configuration (`npm start`, instrumentation.ts); this is what a development server, or one
 * started another way, answers instead of a bare 500.
 */
import 'server-only';
import type { ConfigProblem } from '@/lib/config-problems.server';

const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function misconfiguredPage(problems: ConfigProblem[], csp: string): Response {
  const items = problems.map((p) => `<li><code>${escape(p.variable)}</code>: ${escape(p.problem)}.<br>Fix: ${escape(p.fix)}.</li>`).join('');
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Runpad is not configured</title></head>
<body style="font-family:system-ui,sans-serif;max-width:44rem;margin:4rem auto;padding:0 1.5rem;line-height:1.5">
<h1>This Runpad cannot work until its configuration is changed</h1>
<p>Nothing is wrong on your side. Whoever runs this server must change the settings below (in its environment or <code>.env.local</code>) and restart it; <code>npm run doctor</code> checks them.</p>
<ul>${items}</ul>
</body></html>`;
  return new Response(html, { status: 503, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'retry-after': '60', 'content-security-policy': csp } });
}

import type { Metadata, Viewport } from 'next';
import { headers } from 'next/headers';
import './globals.css';

export const metadata: Metadata = {
  title: 'Runpad',
  description: 'A chat in which the model writes Python and your browser runs it.',
};

export const viewport: Viewport = { width: 'device-width', initialScale: 1 };

/** Applies the saved theme before first paint (allowed by this request's CSP nonce). */
const themeScript = `try{var t=localStorage.getItem('runpad:theme');var d=t?t==='dark':matchMedia('(prefers-color-scheme: dark)').matches;document.documentElement.classList.toggle('dark',d)}catch(e){}`;

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const nonce = (await headers()).get('x-nonce') ?? undefined;
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: themeScript }} />
      </head>
      <body>
        {/* The first tab stop: straight to the message box. Hidden where a page has none. */}
        <a
          href="#composer"
          className="sr-only rounded-lg bg-white px-3 py-2 text-sm font-medium text-blue-700 shadow-lg ring-2 ring-blue-600 focus:not-sr-only focus:fixed focus:left-2 focus:top-2 focus:z-50 dark:bg-zinc-900 dark:text-blue-300 [body:not(:has(#composer))_&]:hidden"
        >
          Skip to message box
        </a>
        {children}
      </body>
    </html>
  );
}

'use client';

import { useSyncExternalStore } from 'react';

function subscribe(onChange: () => void) {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['class'] });
  return () => observer.disconnect();
}
const isDark = () => document.documentElement.classList.contains('dark');
/** The server cannot know (the theme is applied before first paint, from localStorage). */
const unknownOnServer = () => null;

/**
 * Light/dark toggle; the choice is remembered, otherwise the system setting applies. Its
 * accessible name is its visible text, "Theme" (WCAG 2.5.3); narrow screens show an icon, with
 * the same name for screen readers. What it will do is its description (the tooltip).
 */
export function ThemeToggle() {
  const dark = useSyncExternalStore(subscribe, isDark, unknownOnServer);
  const toggle = () => {
    const next = !isDark();
    document.documentElement.classList.toggle('dark', next);
    localStorage.setItem('runpad:theme', next ? 'dark' : 'light');
  };
  return (
    <button
      type="button"
      onClick={toggle}
      title={dark === null ? 'Switch between light and dark' : dark ? 'Switch to the light theme' : 'Switch to the dark theme'}
      className="flex items-center gap-1 whitespace-nowrap rounded px-1.5 py-0.5 text-xs underline hover:bg-zinc-100 dark:hover:bg-zinc-800"
    >
      <svg aria-hidden viewBox="0 0 24 24" className="size-4 lg:hidden" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
        <path d="M12 3a6 6 0 0 0 9 9 9 9 0 1 1-9-9Z" />
      </svg>
      <span className="max-lg:sr-only">Theme</span>
    </button>
  );
}

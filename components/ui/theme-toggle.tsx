'use client';

/** Light/dark toggle; the choice is remembered, otherwise the system setting applies. */
export function ThemeToggle() {
  const toggle = () => {
    const dark = !document.documentElement.classList.contains('dark');
    document.documentElement.classList.toggle('dark', dark);
    localStorage.setItem('runpad:theme', dark ? 'dark' : 'light');
  };
  return (
    <button type="button" onClick={toggle} aria-label="Toggle dark mode" className="rounded px-1.5 py-0.5 text-xs underline hover:bg-zinc-100 dark:hover:bg-zinc-800">
      Theme
    </button>
  );
}

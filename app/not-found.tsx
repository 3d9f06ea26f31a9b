import Link from 'next/link';

/** Any other missing page (an unknown address, a conversation that is not yours or was deleted). */
export default function NotFound() {
  return (
    <main className="mx-auto flex min-h-dvh max-w-xl flex-col items-center justify-center px-6 py-16 text-center">
      <h1 className="text-2xl font-semibold">There is nothing here</h1>
      <p className="mt-3 text-sm text-zinc-700 dark:text-zinc-300">
        This page does not exist, or the conversation was deleted or belongs to another browser.
      </p>
      <Link href="/" className="mt-6 rounded-lg bg-blue-600 px-4 py-2 text-sm font-medium text-white hover:bg-blue-700">
        Start a new conversation
      </Link>
    </main>
  );
}

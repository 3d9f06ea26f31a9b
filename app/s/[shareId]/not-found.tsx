import Link from 'next/link';

/**
 * A share link that was revoked, or never existed (still HTTP 404): says so in words, with a way
 * on, instead of the framework's bare 404.
 */
export default function ShareNotFound() {
  return (
    <main className="mx-auto flex min-h-dvh max-w-xl flex-col items-center justify-center px-6 py-16 text-center">
      <p className="text-sm font-medium text-zinc-600 dark:text-zinc-400">Shared conversation</p>
      <h1 className="mt-2 text-2xl font-semibold">This link was turned off or never existed</h1>
      <p className="mt-3 text-sm text-zinc-700 dark:text-zinc-300">
        Whoever shared it may have revoked it, or the address may be incomplete. Ask them for a new link, or start a conversation of your own.
      </p>
      <Link href="/" className="mt-6 rounded-lg bg-blue-600 px-4 py-2 text-sm font-medium text-white hover:bg-blue-700">
        Go to Runpad
      </Link>
    </main>
  );
}

'use client';
/** better-auth's browser client (same origin, /api/auth): sign-in with the provider or a passkey, sessions. */
import { passkeyClient } from '@better-auth/passkey/client';
import { createAuthClient } from 'better-auth/react';

export const authClient = createAuthClient({ basePath: '/api/auth', plugins: [passkeyClient()] });

/** What a person reads for a failed sign-in: the server's words when it sent some. */
export function authErrorText(error: { message?: string; code?: string } | null | undefined, fallback: string): string {
  return error?.message || fallback;
}

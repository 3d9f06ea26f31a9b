import { getAuth } from '@/lib/auth/auth.server';
import { getConfig } from '@/lib/config.server';
import { withClientAddress } from '@/lib/request/client-address.server';
import { linkOrigin } from '@/lib/http/link-origin.server';
import { route } from '@/lib/http/route.server';

export const runtime = 'nodejs';

/** better-auth's endpoints (sign-in with the provider or a passkey, callbacks, sessions, sign-out): lib/auth/auth.server.ts. */
const handle = route<{ all: string[] }>(async ({ request }) => {
  const config = getConfig();
  return (await getAuth(linkOrigin(request.headers, config))).handler(withClientAddress(request, config));
});

export const GET = handle;
export const POST = handle;

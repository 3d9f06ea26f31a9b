import { getAuth } from '@/lib/auth/auth.server';
import { getConfig } from '@/lib/config.server';
import { AppError } from '@/lib/errors.server';
import { withClientAddress } from '@/lib/request/client-address.server';
import { requestOrigin } from '@/lib/request/origin.server';
import { route } from '@/lib/http/route.server';

export const runtime = 'nodejs';

/** better-auth's endpoints (sign-in with the provider or a passkey, callbacks, sessions, sign-out): lib/auth/auth.server.ts. */
const handle = route<{ all: string[] }>(async ({ request }) => {
  const config = getConfig();
  const origin = requestOrigin(request.headers, config);
  if (!origin) throw new AppError('request:invalid', { message: 'This request names no valid host.', reason: 'no origin' });
  return (await getAuth(origin)).handler(withClientAddress(request, config));
});

export const GET = handle;
export const POST = handle;

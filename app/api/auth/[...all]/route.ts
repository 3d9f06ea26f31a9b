import { getAuth } from '@/lib/auth/auth';
import { getConfig } from '@/lib/config';
import { AppError } from '@/lib/errors';
import { withClientAddress } from '@/lib/http/client-address';
import { requestOrigin } from '@/lib/http/origin';
import { route } from '@/lib/http/route';

export const runtime = 'nodejs';

/** better-auth's endpoints (sign-in with the provider or a passkey, callbacks, sessions, sign-out): lib/auth/auth.ts. */
const handle = route<{ all: string[] }>(async ({ request }) => {
  const config = getConfig();
  const origin = requestOrigin(request.headers, config);
  if (!origin) throw new AppError('request:invalid', { message: 'This request names no valid host.', reason: 'no origin' });
  return (await getAuth(origin)).handler(withClientAddress(request, config));
});

export const GET = handle;
export const POST = handle;

import { getAuth } from '@/lib/auth/auth';
import { getConfig } from '@/lib/config';
import { AppError } from '@/lib/errors';
import { requestOrigin } from '@/lib/http/origin';
import { route } from '@/lib/http/route';

export const runtime = 'nodejs';

/** better-auth's endpoints (sign-in with the provider or a passkey, callbacks, sessions, sign-out): lib/auth/auth.ts. */
const handle = route(async ({ request }) => {
  const origin = requestOrigin(request.headers, getConfig());
  if (!origin) throw new AppError('request:invalid', { message: 'This request names no valid host.', reason: 'no origin' });
  return (await getAuth(origin)).handler(request);
});

export const GET = handle;
export const POST = handle;

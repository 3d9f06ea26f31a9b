/**
 * False in the server's HTML and until React has hydrated the page, then true. A control whose
 * work is React's (a click handler, a form's submit handler) is disabled until then: clicked in the
 * server's HTML it would do nothing, or submit a form the browser's way (its fields in the URL).
 */
import { useSyncExternalStore } from 'react';

const noSubscription = () => () => undefined;

export function useHydrated(): boolean {
  return useSyncExternalStore(noSubscription, () => true, () => false);
}

/** A backup, restore or move that will not go ahead, with words naming what to change; the command prints them and exits 1. */
import 'server-only';
export class RefusedError extends Error {
  override name = 'RefusedError';
}

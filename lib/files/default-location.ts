/**
 * Where a dropped or attached file goes by default (issue 39): large files stay on this device,
 * smaller ones are uploaded so that shares and the person's other devices can read them. The person
 * can switch either way afterwards. Shared and pure.
 */
import type { DataFileLocation } from './data-file';

/** Files larger than this are kept on the device by default. */
export const KEEP_ON_DEVICE_OVER_BYTES = 100_000_000;

/** The default home of a file of `size` bytes; `deviceAvailable`: this browser can keep files (OPFS). */
export function defaultLocation(size: number, deviceAvailable: boolean): DataFileLocation {
  return deviceAvailable && size > KEEP_ON_DEVICE_OVER_BYTES ? 'device' : 'account';
}

/**
 * Where a dropped or attached file goes by default (issue 39): a file over the upload limit (the
 * operator's RUNPAD_UPLOAD_FILE_BYTES, 100 MB unless set) stays on this device, smaller ones are
 * uploaded so that shares and the person's other devices can read them. The person can switch
 * either way afterwards (to the account only within the limit). Shared and pure.
 */
import type { DataFileLocation } from './data-file';

/** The default home of a file of `size` bytes; `deviceAvailable`: this browser can keep files (OPFS); `uploadFileBytes`: the instance's per-file upload limit. */
export function defaultLocation(size: number, deviceAvailable: boolean, uploadFileBytes: number): DataFileLocation {
  return deviceAvailable && size > uploadFileBytes ? 'device' : 'account';
}

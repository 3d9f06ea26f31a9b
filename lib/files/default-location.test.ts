import { describe, expect, it } from 'vitest';
import { defaultLocation } from './default-location';

/** The operator's RUNPAD_UPLOAD_FILE_BYTES: the default and a smaller instance's. */
for (const limit of [100_000_000, 20_000_000]) {
  describe(`defaultLocation with an upload limit of ${limit} bytes`, () => {
    it('keeps a file over the upload limit on the device', () => {
      expect(defaultLocation(limit + 1, true, limit)).toBe('device');
      expect(defaultLocation(5e9, true, limit)).toBe('device');
    });
    it('uploads a file at or under the limit', () => {
      expect(defaultLocation(limit, true, limit)).toBe('account');
      expect(defaultLocation(0, true, limit)).toBe('account');
    });
    it('uploads every file where the browser cannot keep one (a file over the limit is then refused in words)', () => {
      expect(defaultLocation(5e9, false, limit)).toBe('account');
    });
  });
}

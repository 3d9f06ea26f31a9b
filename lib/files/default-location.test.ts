import { describe, expect, it } from 'vitest';
import { defaultLocation, KEEP_ON_DEVICE_OVER_BYTES } from './default-location';

describe('defaultLocation', () => {
  it('keeps a file over the threshold on the device', () => {
    expect(defaultLocation(KEEP_ON_DEVICE_OVER_BYTES + 1, true)).toBe('device');
    expect(defaultLocation(5e9, true)).toBe('device');
  });
  it('uploads a file at or under the threshold', () => {
    expect(defaultLocation(KEEP_ON_DEVICE_OVER_BYTES, true)).toBe('account');
    expect(defaultLocation(0, true)).toBe('account');
  });
  it('uploads every file where the browser cannot keep one', () => {
    expect(defaultLocation(5e9, false)).toBe('account');
  });
});

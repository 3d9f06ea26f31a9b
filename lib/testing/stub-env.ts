/** Sets several environment variables for the test file (vi.stubEnv each; "" is unset for the config). */
import { vi } from 'vitest';

export function stubEnvs(values: Record<string, string>): void {
  for (const [name, value] of Object.entries(values)) vi.stubEnv(name, value);
}

import fs from 'node:fs';
import { SNAPSHOT_DIR } from './test';

/** Runs once before any worker starts: snapshots captured by an earlier run (another build) go. */
export default function globalSetup(): void {
  fs.rmSync(SNAPSHOT_DIR, { recursive: true, force: true });
}

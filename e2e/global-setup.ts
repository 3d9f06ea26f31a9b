import fs from 'node:fs';
import { PROFILE_DIR, VISITOR_DIR } from './test';

/** Runs once before any worker starts: template profiles made by an earlier run (another build) go. */
export default function globalSetup(): void {
  fs.rmSync(PROFILE_DIR, { recursive: true, force: true });
  fs.rmSync(VISITOR_DIR, { recursive: true, force: true });
}

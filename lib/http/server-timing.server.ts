/**
 * Phases of a request, reported in a `Server-Timing` header so the route's own overhead can be
 * read in the browser's devtools and by `npm run bench` without a profiler.
 */
import 'server-only';
export class ServerTiming {
  private readonly phases: Array<[string, number]> = [];
  private last = performance.now();

  /** Ends the current phase under this name. */
  mark(name: string): void {
    const now = performance.now();
    this.phases.push([name, now - this.last]);
    this.last = now;
  }

  header(): string {
    return this.phases.map(([name, ms]) => `${name};dur=${ms.toFixed(1)}`).join(', ');
  }
}

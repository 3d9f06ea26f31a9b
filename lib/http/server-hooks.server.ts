/**
 * The one place that reaches into the Node HTTP server Next starts (it is Next's own object, so
 * a hook on http.Server's `emit` is the way in): each hook sees every event of every server and
 * says whether it answered it. Used from instrumentation.ts through lib/http/peer-address.server.ts,
 * lib/http/keep-alive.server.ts and lib/assets/serve-engine-assets.server.ts. The hook list lives on the
 * prototype, so a module loaded twice (Next bundles instrumentation apart) still installs once.
 */
import 'server-only';
import http from 'node:http';

/** True when the hook has answered the event and Next must not see it. */
export type ServerHook = (server: http.Server, event: string | symbol, args: unknown[]) => boolean;

const HOOKS = Symbol.for('runpad.serverHooks');
type HookedServer = http.Server & { [HOOKS]?: Map<string, ServerHook> };

/** Adds (or, under the same name, replaces) a hook. */
export function addServerHook(name: string, hook: ServerHook): void {
  const proto = http.Server.prototype as HookedServer;
  let hooks = proto[HOOKS];
  if (!hooks) {
    hooks = new Map();
    proto[HOOKS] = hooks;
    const installed = hooks;
    const emit = proto.emit;
    proto.emit = function (this: http.Server, event: string | symbol, ...args: unknown[]) {
      for (const each of installed.values()) if (each(this, event, args)) return true;
      return emit.call(this, event, ...args);
    } as typeof proto.emit;
  }
  hooks.set(name, hook);
}

import { unrefTimer } from '../common/unref-timer.js';

/** A socket the sweep watches: when it was last heard from, and what to do when it is silent. */
export interface IdleWatched {
  /** Called on each tick with the time now; pings or drops the socket as its silence says. */
  checkIdle(now: number, idleMs: number): void;
}

/**
 * The idle checks of an app's sockets: one timer per idle timeout (a route's
 * `idleTimeoutSeconds`), ticking every quarter of it over the sockets that have it, instead of a
 * timer per socket. A timer and its closure cost ~200 bytes a socket, which is most of what an
 * idle connection needs besides its own `ws` objects; one walk of a Set every 15 s (the default)
 * costs well under a microsecond per socket. Each socket is checked at the same points of its
 * silence as with its own timer: pinged after half the timeout, dropped after the whole, both
 * found within a quarter more, so a dead peer is gone within 1.25 x the timeout as before.
 *
 * @example
 * const sweep = new IdleSweep();
 * sweep.watch(session, 60_000);
 * sweep.forget(session, 60_000);
 */
export class IdleSweep {
  private readonly groups = new Map<number, { readonly sockets: Set<IdleWatched>; readonly timer: ReturnType<typeof setInterval> }>();

  watch(socket: IdleWatched, idleMs: number): void {
    let group = this.groups.get(idleMs);
    if (group === undefined) {
      const sockets = new Set<IdleWatched>();
      const timer = unrefTimer(
        setInterval(() => {
          const now = Date.now();
          for (const watched of sockets) watched.checkIdle(now, idleMs);
        }, Math.max(10, idleMs / 4)),
      );
      this.groups.set(idleMs, (group = { sockets, timer }));
    }
    group.sockets.add(socket);
  }

  forget(socket: IdleWatched, idleMs: number): void {
    const group = this.groups.get(idleMs);
    if (group === undefined || !group.sockets.delete(socket) || group.sockets.size > 0) return;
    // The last socket of this timeout went: so does its timer, until one comes again.
    clearInterval(group.timer);
    this.groups.delete(idleMs);
  }
}

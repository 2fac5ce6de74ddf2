import { unrefTimer } from '../common/unref-timer.js';

/** A socket the sweep watches. */
export interface IdleWatched {
  /**
   * Called on each tick: the socket counts the ticks since it last heard from its peer (hearing
   * resets the count), pings once the count reaches `pingAt`, and drops the connection at `dropAt`.
   */
  idleTick(pingAt: number, dropAt: number): void;
}

/**
 * The idle checks of an app's sockets: one timer per idle timeout (a route's
 * `idleTimeoutSeconds`), ticking every quarter of it over the sockets that have it, instead of a
 * timer per socket. A timer and its closure cost ~200 bytes a socket, which is most of what an
 * idle connection needs besides its own `ws` objects; one walk of a Set every 15 s (the default)
 * costs well under a microsecond per socket. A socket counts ticks instead of reading the clock
 * on every message (hearing from the peer is one store). With ticks every quarter of the timeout,
 * a socket is pinged after 3 silent ticks (2 to 3 quarters of silence) and dropped after 5 (at
 * least the whole timeout, at most 1.25 x): the points a timer of its own found before.
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
      const tickMs = Math.max(10, idleMs / 4);
      // n silent ticks mean at least (n - 1) ticks of silence: ping past half the timeout, drop past all of it.
      const pingAt = Math.ceil(idleMs / 2 / tickMs) + 1;
      const dropAt = Math.ceil(idleMs / tickMs) + 1;
      const timer = unrefTimer(
        setInterval(() => {
          for (const watched of sockets) watched.idleTick(pingAt, dropAt);
        }, tickMs),
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

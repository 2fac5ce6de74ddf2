import { unrefTimer } from '../common/unref-timer.js';

/** A socket the sweep looks at: every open socket of the app, through the hub's registry. */
export interface IdleWatched {
  /**
   * Called on each tick of the sweep for `idleMs`: a socket with that idle timeout (and a runtime
   * that pings) counts the ticks since it last heard from its peer (hearing resets the count),
   * pings once the count reaches `pingAt`, and drops the connection at `dropAt`; any other
   * socket does nothing.
   */
  idleTick(idleMs: number, pingAt: number, dropAt: number): void;
}

/**
 * The idle checks of an app's sockets: one timer per idle timeout in use (a route's
 * `idleTimeoutSeconds`), ticking every quarter of it over the app's open sockets (the hub's
 * registry, so a socket costs no entry of its own here), instead of a timer per socket. A timer
 * and its closure cost ~200 bytes a socket, most of what an idle connection needs besides its own
 * `ws` objects; one walk of the registry every 15 s (the default) costs well under a microsecond
 * per socket. A socket counts ticks instead of reading the clock on every message (hearing from
 * the peer is one store). With ticks every quarter of the timeout, a socket is pinged after 3
 * silent ticks (2 to 3 quarters of silence) and dropped after 5 (at least the whole timeout, at
 * most 1.25 x): the points a timer of its own found before.
 *
 * @example
 * const sweep = new IdleSweep(sessions);
 * sweep.watch(60_000); // a socket with a 60 s timeout opened
 * sweep.forget(60_000); // ... and closed
 */
export class IdleSweep {
  private readonly groups = new Map<number, { watched: number; readonly timer: ReturnType<typeof setInterval> }>();

  constructor(private readonly sockets: Iterable<IdleWatched>) {}

  watch(idleMs: number): void {
    const group = this.groups.get(idleMs);
    if (group !== undefined) {
      group.watched++;
      return;
    }
    const tickMs = Math.max(10, idleMs / 4);
    // n silent ticks mean at least (n - 1) ticks of silence: ping past half the timeout, drop past all of it.
    const pingAt = Math.ceil(idleMs / 2 / tickMs) + 1;
    const dropAt = Math.ceil(idleMs / tickMs) + 1;
    const timer = unrefTimer(
      setInterval(() => {
        for (const socket of this.sockets) socket.idleTick(idleMs, pingAt, dropAt);
      }, tickMs),
    );
    this.groups.set(idleMs, { watched: 1, timer });
  }

  forget(idleMs: number): void {
    const group = this.groups.get(idleMs);
    if (group === undefined || --group.watched > 0) return;
    // The last socket with this timeout went: so does its timer, until one comes again.
    clearInterval(group.timer);
    this.groups.delete(idleMs);
  }
}

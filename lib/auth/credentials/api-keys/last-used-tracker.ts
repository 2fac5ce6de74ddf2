/**
 * Decides when a key's last-used time is written back to the store: at most once per key per
 * process per interval (SPEC "API keys" 13), so a busy key costs the store one write per interval
 * instead of one per request.
 *
 * Only keys that authenticated successfully are recorded, so the map holds at most the real keys
 * used within one interval; entries older than the interval are swept from the old end (the Map's
 * insertion order is the order of the last touch), so no arbitrary cap can cause an extra touch.
 *
 * The slot is taken before `touch` runs and is not given back when `touch` fails: a failing store
 * is not retried on every request (failures are ignored, SPEC "ApiKeyStore").
 *
 * @example
 * const tracker = new LastUsedTracker(300_000);
 * tracker.claim(id, clock.now()); // true: touch now
 * tracker.claim(id, clock.now()); // false: touched less than 300 s ago
 */
export class LastUsedTracker {
  readonly intervalMs: number;
  readonly #lastTouchMs = new Map<string, number>();

  constructor(intervalMs: number) {
    if (!(intervalMs >= 0) || !Number.isFinite(intervalMs)) {
      throw new RangeError('LastUsedTracker intervalMs must be a non-negative number');
    }
    this.intervalMs = intervalMs;
  }

  get size(): number {
    return this.#lastTouchMs.size;
  }

  /** True (and records `nowMs`) when `id` was not touched within the interval before `nowMs`. */
  claim(id: string, nowMs: number): boolean {
    const last = this.#lastTouchMs.get(id);
    if (last !== undefined && nowMs - last < this.intervalMs) return false;
    this.#lastTouchMs.delete(id);
    this.#sweep(nowMs);
    this.#lastTouchMs.set(id, nowMs);
    return true;
  }

  #sweep(nowMs: number): void {
    for (const [id, last] of this.#lastTouchMs) {
      if (nowMs - last < this.intervalMs) break;
      this.#lastTouchMs.delete(id);
    }
  }
}

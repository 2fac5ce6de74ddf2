import type { SocketRecord } from '../../websocket/socket-client.js';

/** The posts a live socket was pushed, by title, with a wait for given ones. */
export interface PushLog {
  /** How many pushes carried a title starting with `prefix`. */
  countWithPrefix(prefix: string): number;
  /** Resolves true once every title has been pushed, false if not within `ms`. */
  waitFor(titles: readonly string[], ms: number): Promise<boolean>;
  /** Whether the socket is still open. */
  open(): boolean;
}

/**
 * Follows a `/tenants/:id/live` socket (each message: one created post, as JSON).
 *
 * @example
 * const pushes = followPushes(await openSocket(url, { headers })); await pushes.waitFor(['hello'], 1_000);
 */
export function followPushes(socket: SocketRecord): PushLog {
  const seen = new Map<string, number>();
  const waiters = new Set<() => void>();
  let isOpen = true;
  socket.ws.on('message', (data: Buffer) => {
    const title = (JSON.parse(data.toString()) as { title?: unknown }).title;
    if (typeof title === 'string') seen.set(title, (seen.get(title) ?? 0) + 1);
    for (const wake of waiters) wake();
  });
  void socket.closed.then(() => (isOpen = false));
  return {
    countWithPrefix: (prefix) => [...seen].reduce((sum, [title, n]) => (title.startsWith(prefix) ? sum + n : sum), 0),
    waitFor: (titles, ms) =>
      new Promise((resolve) => {
        const check = () => {
          if (!titles.every((title) => seen.has(title))) return;
          finish(true);
        };
        const finish = (found: boolean) => {
          clearTimeout(timer);
          waiters.delete(check);
          resolve(found);
        };
        const timer = setTimeout(() => finish(false), ms);
        waiters.add(check);
        check();
      }),
    open: () => isOpen,
  };
}

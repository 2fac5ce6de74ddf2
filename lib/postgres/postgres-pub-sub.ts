import { TopicHandlers, unrefTimer, type Logger, type PubSub } from '../internal.js';
import type { SqlClient } from './sql-client.js';

/**
 * The connection `postgresPubSub` listens on: a dedicated client (not a pool's), as `pg`'s
 * `Client` is, whose `notification` events carry what `NOTIFY` sent.
 *
 * @example
 * const connect = async (): Promise<ListenConnection> => { const c = new pg.Client(url); await c.connect(); return c; };
 */
export interface ListenConnection {
  query(text: string): Promise<unknown>;
  on(event: 'notification', listener: (message: { channel: string; payload?: string | undefined }) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  end(): Promise<void>;
}

/**
 * Options of {@link postgresPubSub}.
 *
 * @example
 * postgresPubSub({ publisher: pool, connect: () => connectClient(url), logger: app.logger });
 */
export interface PostgresPubSubOptions {
  /** Sends `NOTIFY` (through `pg_notify`): any query client, a pool included. */
  readonly publisher: SqlClient;
  /** Opens the dedicated connection that `LISTEN`s; called again after it is lost. */
  readonly connect: () => Promise<ListenConnection>;
  /** The PostgreSQL channel every topic travels on. Default `tessera_pubsub`. */
  readonly channel?: string;
  /** Told when the listener is lost and when it is back, once each time, and of handler errors. Default: silent. */
  readonly logger?: Logger;
  /** Longest wait between reconnection attempts, ms. Default 5 000 (attempts start at 100 ms and double). */
  readonly maxReconnectDelayMs?: number;
}

/** NOTIFY's payload limit is 8 000 bytes; the envelope takes a few. */
const MAX_PAYLOAD_BYTES = 7_900;

/**
 * A PubSub on PostgreSQL's `LISTEN`/`NOTIFY`, for several instances sharing one database and no
 * Redis. Every topic travels on one channel (`{"t":topic,"m":message}`; messages up to about
 * 7 900 bytes), and each instance keeps one listening connection, which it reopens (with the
 * same `LISTEN`) whenever it is lost: messages published meanwhile are lost (at most once). A
 * handler's error is logged and never ends its subscription.
 *
 * @example
 * const pubsub = postgresPubSub({ publisher: pool, connect: async () => { const client = new pg.Client(url); await client.connect(); return client; } });
 * const app = await createApp(AppModule, { pubsub });
 */
export function postgresPubSub(options: PostgresPubSubOptions): PubSub {
  const channel = options.channel ?? 'tessera_pubsub';
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new RangeError('postgresPubSub: channel must be a lowercase SQL identifier of at most 63 characters.');
  const maxDelay = options.maxReconnectDelayMs ?? 5_000;
  const local = new TopicHandlers();
  const onHandlerError = (error: unknown, topic: string) => options.logger?.error({ err: error, topic }, 'A topic handler failed');
  let listener: Promise<ListenConnection> | undefined;
  let closed = false;
  let lost = false;
  // False from a loss (or a failed first connection) until LISTEN succeeds again.
  let up = true;
  let retry: ReturnType<typeof setTimeout> | undefined;

  const dispatch = (payload: string | undefined): void => {
    let envelope: { t?: unknown; m?: unknown };
    try {
      envelope = JSON.parse(payload ?? '') as { t?: unknown; m?: unknown };
    } catch {
      return;
    }
    if (typeof envelope.t === 'string' && typeof envelope.m === 'string') local.deliver(envelope.t, envelope.m, onHandlerError);
  };

  const open = (delay: number): Promise<ListenConnection> => {
    const attempt = async (): Promise<ListenConnection> => {
      const connection = await options.connect();
      let gone = false;
      const onLost = (error?: Error) => {
        if (gone) return;
        gone = true;
        if (closed) return;
        if (!lost) options.logger?.warn({ err: error }, 'PostgreSQL pub/sub listener lost: reconnecting (messages published meanwhile are lost)');
        lost = true;
        up = false;
        listener = open(100).catch(() => connection);
      };
      connection.on('notification', (message) => {
        if (message.channel === channel) dispatch(message.payload);
      });
      connection.on('error', onLost);
      connection.on('end', () => onLost());
      try {
        await connection.query(`LISTEN ${channel}`);
      } catch (error) {
        gone = true;
        await connection.end().catch(() => undefined);
        throw error;
      }
      if (lost) options.logger?.info({}, 'PostgreSQL pub/sub listener back');
      lost = false;
      up = true;
      return connection;
    };
    const tryAgain = (wait: number): Promise<ListenConnection> =>
      new Promise((resolve, reject) => {
        retry = unrefTimer(setTimeout(() => {
          if (closed) return reject(new Error('postgresPubSub is closed'));
          attempt().then(resolve, (error: unknown) => {
            if (!lost) options.logger?.warn({ err: error }, 'PostgreSQL pub/sub listener cannot connect: retrying');
            lost = true;
            tryAgain(Math.min(maxDelay, wait * 2)).then(resolve, reject);
          });
        }, wait));
      });
    return delay === 0 ? attempt() : tryAgain(delay);
  };

  return {
    async publish(topic, message) {
      const payload = JSON.stringify({ t: topic, m: message });
      if (new TextEncoder().encode(payload).byteLength > MAX_PAYLOAD_BYTES) throw new RangeError(`postgresPubSub: a message on ${topic} is over the ${MAX_PAYLOAD_BYTES} bytes NOTIFY carries.`);
      await options.publisher.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    async subscribe(topic, handler) {
      if (closed) throw new Error('postgresPubSub is closed');
      local.add(topic, handler);
      // The first subscription opens the listener; later ones wait until it listens.
      listener ??= open(0).catch((error: unknown) => {
        listener = undefined;
        up = false;
        throw error;
      });
      await listener;
    },
    unsubscribe(topic, handler) {
      local.remove(topic, handler);
      return Promise.resolve();
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      local.clear();
      const current = listener;
      listener = undefined;
      if (current !== undefined) await current.then((connection) => connection.end(), () => undefined);
    },
    listening: () => up,
  };
}

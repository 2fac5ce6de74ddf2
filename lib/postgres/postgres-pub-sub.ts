import { jsonLogger, type Logger, type PubSub, type TopicHandler } from '../index.js';
import { callHandler, EngineOutage, startHeartbeat, TopicTable } from '../internal/engines.js';
import { unrefTimer } from '../internal/primitives.js';
import type { SqlClient } from './sql-client.js';
import { assertSqlClient } from './sql-client-check.js';

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
  /**
   * Told when the listener is lost and when it is back, once each time (JSON lines
   * `engine.lost` / `engine.back`), and of handler errors. Default: a JSON logger on stdout.
   */
  readonly logger?: Logger;
  /**
   * How often the listening connection is asked `SELECT 1`, ms; unanswered for as long, it counts
   * as lost and is reopened (a stalled server or network keeps the TCP connection open, so only
   * an answer tells it is alive). Default 1 000; 0 turns the heartbeat off.
   */
  readonly heartbeatMs?: number;
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
  assertSqlClient(options.publisher, "postgresPubSub's publisher");
  const channel = options.channel ?? 'tessera_pubsub';
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(channel)) throw new RangeError('postgresPubSub: channel must be a lowercase SQL identifier of at most 63 characters.');
  const maxDelay = options.maxReconnectDelayMs ?? 5_000;
  const heartbeatMs = options.heartbeatMs ?? 1_000;
  const logger = options.logger ?? jsonLogger();
  const onHandlerError = (error: unknown, topic: string) => logger.error({ err: error, topic }, 'A topic handler failed');
  // Down until the first LISTEN holds; a first connection that fails is logged as a loss.
  const outage = new EngineOutage('postgres pub/sub listener', logger, { startsDown: true });
  let listener: Promise<ListenConnection> | undefined;
  let closed = false;
  let retry: ReturnType<typeof setTimeout> | undefined;
  // Every topic travels on the one channel: a topic's upstream subscription is the listener itself.
  const local = new TopicTable<TopicHandler>({
    subscribe: async () => {
      // The first subscription opens the listener; later ones wait until it listens.
      listener ??= open(0).catch((error: unknown) => {
        listener = undefined;
        throw error;
      });
      await listener;
    },
    unsubscribe: () => Promise.resolve(),
  });

  const dispatch = (payload: string | undefined): void => {
    let envelope: { t?: unknown; m?: unknown };
    try {
      envelope = JSON.parse(payload ?? '') as { t?: unknown; m?: unknown };
    } catch {
      return;
    }
    if (typeof envelope.t === 'string' && typeof envelope.m === 'string') local.deliver(envelope.t, envelope.m, callHandler, onHandlerError);
  };

  const open = (delay: number): Promise<ListenConnection> => {
    const attempt = async (): Promise<ListenConnection> => {
      const connection = await options.connect();
      let gone = false;
      let stopHeartbeat: (() => void) | undefined;
      const onLost = (error?: unknown) => {
        if (gone) return;
        gone = true;
        stopHeartbeat?.();
        if (closed) return;
        outage.lost(error);
        // A connection that still looks open (a stall) is let go: the next one listens instead.
        connection.end().catch(() => undefined);
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
      if (heartbeatMs > 0) stopHeartbeat = startHeartbeat(heartbeatMs, () => connection.query('SELECT 1'), () => undefined, onLost);
      outage.back();
      return connection;
    };
    const tryAgain = (wait: number): Promise<ListenConnection> =>
      new Promise((resolve, reject) => {
        retry = unrefTimer(setTimeout(() => {
          if (closed) return reject(new Error('postgresPubSub is closed'));
          attempt().then(resolve, (error: unknown) => {
            outage.lost(error);
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
    subscribe: (topic, handler) => local.add(topic, handler),
    unsubscribe: (topic, handler) => local.remove(topic, handler),
    async close() {
      closed = true;
      clearTimeout(retry);
      local.close();
      const current = listener;
      listener = undefined;
      if (current !== undefined) await current.then((connection) => connection.end(), () => undefined);
    },
    listening: () => outage.up,
    onListeningChange: (listener) => outage.onChange(listener),
  };
}

import { createToken, type Token } from '../di/token.js';
import { TopicTable } from './topic-table.js';

/**
 * Receives the messages of a topic. Its errors are caught and logged by the engine: a handler that
 * throws never ends its subscription nor stops the other handlers.
 */
export type TopicHandler = (message: string) => void;

/**
 * How a message that the engine could not take is treated by the app's bus (`PUB_SUB`); engines
 * themselves ignore it.
 *
 * @example
 * await bus.publish('tessera:auth:invalidate', event, { retry: true }); // a revocation: never silently lost
 */
export interface PublishOptions {
  /**
   * true: kept in bounded memory and published again once the engine takes messages (for
   * messages whose loss would be wrong, such as revocations). Default false: dropped, counted and
   * logged once per outage (a push to sockets that would be stale by the time it arrived).
   */
  readonly retry?: boolean;
}

/**
 * A publish/subscribe engine: what carries WebSocket topics (and, across instances, whatever an
 * app broadcasts) from a publisher to every subscriber. Messages are strings (JSON, typically);
 * delivery is at most once and in publish order per publisher. The in-process engine is the
 * default; an engine that spans instances (PostgreSQL, Redis) implements the same contract and
 * resubscribes by itself after a reconnect.
 *
 * @example
 * const bus: PubSub = inProcessPubSub();
 * await bus.subscribe('posts', (message) => console.log(JSON.parse(message)));
 * await bus.publish('posts', JSON.stringify({ id: '1' }));
 */
export interface PubSub {
  /**
   * Sends `message` to every handler subscribed to `topic` (on every instance, for a shared
   * engine). An engine rejects when it cannot take the message; the app's bus (`PUB_SUB`) never
   * holds its caller longer than its publish bound and never rejects for an engine's fault (see
   * {@link PublishOptions}).
   */
  publish(topic: string, message: string, options?: PublishOptions): Promise<void>;
  /**
   * Adds `handler` to `topic`; resolves once messages published after it will reach the handler
   * (the engine's subscription holds), rejects (the handler not added) when that failed.
   */
  subscribe(topic: string, handler: TopicHandler): Promise<void>;
  /** Removes `handler` from `topic`; unknown pairs are ignored. */
  unsubscribe(topic: string, handler: TopicHandler): Promise<void>;
  /** Drops every subscription and releases the engine's connections. */
  close(): Promise<void>;
  /**
   * Whether this instance hears the others now: false while the engine's listening connection is
   * lost (until it is back and subscribed again), true otherwise. Engines within one process have
   * no such connection and leave it out. What `pubSubHealthCheck` reports.
   */
  listening?(): boolean;
  /** Calls `listener` whenever `listening()` changes; returns the function that stops it. Engines with `listening` have it. */
  onListeningChange?(listener: (listening: boolean) => void): () => void;
}

/**
 * Options of {@link inProcessPubSub}.
 *
 * @example
 * inProcessPubSub({ onHandlerError: (error, topic) => logger.error({ err: error, topic }, 'topic handler failed') });
 */
export interface InProcessPubSubOptions {
  /** Told of a handler's error (the delivery to other handlers goes on). Default: ignored. */
  readonly onHandlerError?: (error: unknown, topic: string) => void;
}

/**
 * The default engine: topics within one process, delivered synchronously to each handler in
 * subscription order. Enough for one instance; give `createApp` a shared engine for several.
 *
 * @example
 * const app = await createApp(AppModule, { pubsub: inProcessPubSub() });
 */
export function inProcessPubSub(options: InProcessPubSubOptions = {}): PubSub {
  // Nothing upstream: every topic is carried as soon as it has a member.
  const local = new TopicTable<TopicHandler>({ subscribe: () => Promise.resolve(), unsubscribe: () => Promise.resolve() });
  const onHandlerError = (error: unknown, topic: string) => options.onHandlerError?.(error, topic);
  return {
    publish(topic, message) {
      local.deliver(topic, message, callHandler, onHandlerError);
      return Promise.resolve();
    },
    subscribe: (topic, handler) => local.add(topic, handler),
    unsubscribe: (topic, handler) => local.remove(topic, handler),
    close() {
      local.close();
      return Promise.resolve();
    },
  };
}

/**
 * Gives a message to a topic handler: what every engine's {@link TopicTable} delivers with.
 *
 * @example
 * table.deliver(topic, message, callHandler, onHandlerError);
 */
export function callHandler(handler: TopicHandler, message: string): void {
  handler(message);
}

/**
 * The app's bus: its PubSub engine (the `pubsub` option of createApp, else the in-process one)
 * behind the publish bound (see `createApp`'s `publishTimeoutMs`), injectable in every module
 * without an import: what a service publishes to reaches the WebSocket connections subscribed to
 * the topic (and, through a shared engine, those of other instances). Publishing never holds a
 * request longer than the bound and never rejects for the engine's fault.
 *
 * @example
 * defineFactory(PostEvents, [PUB_SUB], (bus) => new PostEvents(bus));
 * await bus.publish('posts', JSON.stringify(post));
 */
export const PUB_SUB: Token<PubSub> = createToken<PubSub>('PubSub');

import { createToken } from '../common/token.js';
import { TopicHandlers, type TopicHandler } from './topic-handlers.js';

export type { TopicHandler } from './topic-handlers.js';

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
  /** Sends `message` to every handler subscribed to `topic` (on every instance, for a shared engine). */
  publish(topic: string, message: string): Promise<void>;
  /** Adds `handler` to `topic`; resolves once messages published after it will reach the handler. */
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
  const local = new TopicHandlers();
  const onHandlerError = (error: unknown, topic: string) => options.onHandlerError?.(error, topic);
  return {
    publish(topic, message) {
      local.deliver(topic, message, onHandlerError);
      return Promise.resolve();
    },
    subscribe(topic, handler) {
      local.add(topic, handler);
      return Promise.resolve();
    },
    unsubscribe(topic, handler) {
      local.remove(topic, handler);
      return Promise.resolve();
    },
    close() {
      local.clear();
      return Promise.resolve();
    },
  };
}

/**
 * The app's PubSub (the `pubsub` option of createApp, else its in-process engine), injectable in
 * every module without an import: what a service publishes to reaches the WebSocket
 * connections subscribed to the topic (and, through a shared engine, those of other instances).
 *
 * @example
 * defineFactory(PostEvents, [PUB_SUB], (bus) => new PostEvents(bus));
 * await bus.publish('posts', JSON.stringify(post));
 */
export const PUB_SUB = createToken<PubSub>('PubSub');

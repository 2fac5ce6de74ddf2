/**
 * Receives the messages of a topic. Its errors are caught and logged by the engine: a handler that
 * throws never ends its subscription nor stops the other handlers.
 */
export type TopicHandler = (message: string) => void;

/**
 * The handlers of each topic one PubSub engine delivers to locally: what every engine keeps,
 * whatever carries its messages between instances. Delivery goes to a copy of the topic's set (a
 * handler may unsubscribe while a message goes round), and a handler's error goes to `onError`
 * while the others still run.
 *
 * @example
 * const local = new TopicHandlers();
 * if (local.add('posts', handler)) await connection.subscribe('posts'); // the topic's first handler
 * local.deliver('posts', message, (error, topic) => logger.error({ err: error, topic }, 'A topic handler failed'));
 */
export class TopicHandlers {
  readonly #topics = new Map<string, Set<TopicHandler>>();

  /** Adds `handler` to `topic`; true when it is the topic's first handler (the engine subscribes then). */
  add(topic: string, handler: TopicHandler): boolean {
    const handlers = this.#topics.get(topic);
    if (handlers !== undefined) {
      handlers.add(handler);
      return false;
    }
    this.#topics.set(topic, new Set([handler]));
    return true;
  }

  /** Removes `handler` from `topic`; true when it was the topic's last handler (the engine unsubscribes then). */
  remove(topic: string, handler: TopicHandler): boolean {
    const handlers = this.#topics.get(topic);
    if (handlers === undefined || !handlers.delete(handler) || handlers.size > 0) return false;
    this.#topics.delete(topic);
    return true;
  }

  /** Gives `message` to each handler of `topic`. */
  deliver(topic: string, message: string, onError: (error: unknown, topic: string) => void): void {
    const handlers = this.#topics.get(topic);
    if (handlers === undefined) return;
    for (const handler of [...handlers]) {
      try {
        handler(message);
      } catch (error) {
        onError(error, topic);
      }
    }
  }

  clear(): void {
    this.#topics.clear();
  }
}

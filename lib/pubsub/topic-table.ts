/**
 * What a {@link TopicTable} asks of whatever carries a topic beyond this table: a Redis
 * `SUBSCRIBE`, a PostgreSQL `LISTEN`, or, for the WebSocket hub, the app's PubSub.
 *
 * @example
 * const upstream: TopicUpstream = { subscribe: (topic) => redis.subscribe(topic), unsubscribe: (topic) => redis.unsubscribe(topic) };
 */
export interface TopicUpstream {
  /** Starts carrying `topic`; resolves once messages published from now on will arrive. */
  subscribe(topic: string): Promise<void>;
  /** Stops carrying `topic` (called once its last member has left). */
  unsubscribe(topic: string): Promise<void>;
}

/** One topic: its members and the upstream subscription that serves them, while it is pending. */
interface TopicEntry<Member> {
  readonly members: Set<Member>;
  /** Settles when the upstream subscription holds (or failed); undefined once it holds. */
  pending: Promise<void> | undefined;
}

/**
 * The members of each topic, with each topic's upstream subscription: the one table every
 * PubSub engine keeps for its local handlers, and the WebSocket hub keeps for its sockets. The
 * first member of a topic subscribes upstream; a member added while that subscription is
 * pending waits for the same one, so `add` resolves only once the upstream subscription holds,
 * and rejects for every waiting member when it failed (they are all removed: nobody believes it
 * hears a topic that nothing carries). The last member to leave unsubscribes upstream.
 * Delivery goes to a copy of the members (a member may leave while a message goes round), and a
 * member's error goes to `onError` while the others still get the message.
 *
 * @example
 * const table = new TopicTable<TopicHandler>({ subscribe: (t) => redis.subscribe(t), unsubscribe: (t) => redis.unsubscribe(t) });
 * await table.add('posts', handler); // resolves once Redis has subscribed
 * table.deliver('posts', message, (handler, message) => handler(message), (error) => log(error));
 */
export class TopicTable<Member> {
  readonly #topics = new Map<string, TopicEntry<Member>>();
  readonly #upstream: TopicUpstream;
  #closed = false;

  constructor(upstream: TopicUpstream) {
    this.#upstream = upstream;
  }

  /** The topics with at least one member (those the upstream carries, or is subscribing to). */
  get topics(): IterableIterator<string> {
    return this.#topics.keys();
  }

  /** Adds `member` to `topic`; resolves once the topic's upstream subscription holds, rejects (member removed) if it failed. */
  add(topic: string, member: Member): Promise<void> {
    if (this.#closed) return Promise.reject(new Error('The topic table is closed'));
    const known = this.#topics.get(topic);
    if (known !== undefined) {
      known.members.add(member);
      return known.pending ?? Promise.resolve();
    }
    const entry: TopicEntry<Member> = { members: new Set([member]), pending: undefined };
    this.#topics.set(topic, entry);
    entry.pending = this.#upstream.subscribe(topic).then(
      async () => {
        entry.pending = undefined;
        // Closed while the subscription was on its way: nobody is subscribed any more.
        if (this.#closed) throw new Error('The topic table is closed');
        // Everyone left while the subscription was on its way.
        if (entry.members.size === 0) {
          this.#topics.delete(topic);
          await this.#upstream.unsubscribe(topic).catch(() => undefined);
        }
      },
      (error: unknown) => {
        if (this.#topics.get(topic) === entry) this.#topics.delete(topic);
        throw error;
      },
    );
    return entry.pending;
  }

  /** Removes `member` from `topic`; the last one out unsubscribes upstream (once a pending subscription has settled). */
  remove(topic: string, member: Member): Promise<void> {
    const entry = this.#topics.get(topic);
    if (entry === undefined || !entry.members.delete(member) || entry.members.size > 0) return Promise.resolve();
    // A pending subscription unsubscribes by itself when it lands on an empty topic.
    if (entry.pending !== undefined) return entry.pending.catch(() => undefined);
    this.#topics.delete(topic);
    return this.#upstream.unsubscribe(topic);
  }

  /** Whether `topic` has a member. */
  has(topic: string): boolean {
    return this.#topics.has(topic);
  }

  /** Gives `message` to each member of `topic` through `send`; a member's error goes to `onError`. */
  deliver<Message>(topic: string, message: Message, send: (member: Member, message: Message) => void, onError: (error: unknown, topic: string) => void): void {
    const entry = this.#topics.get(topic);
    if (entry === undefined) return;
    for (const member of [...entry.members]) {
      try {
        send(member, message);
      } catch (error) {
        onError(error, topic);
      }
    }
  }

  /**
   * Drops every member and refuses new ones; a subscription still on its way rejects. Nothing is
   * unsubscribed upstream: the engine closes its connection.
   */
  close(): void {
    this.#closed = true;
    this.#topics.clear();
  }
}

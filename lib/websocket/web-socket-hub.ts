import type { Logger } from '../logging/logger.js';
import { createToken, type Token } from '../di/token.js';
import type { RequestContext } from '../context/request-context.js';
import type { PlainAnswer } from '../http/answer.js';
import { ServiceUnavailableException } from '../http/http-exception.js';
import type { IncomingRequest } from '../http/incoming-request.js';
import type { WebSocketSpec } from '../routing/web-socket-spec.js';
import { checkHandshake } from './handshake.js';
import type { PubSub, TopicHandler } from '../pubsub/pub-sub.js';
import { TopicTable } from '../pubsub/topic-table.js';
import { acceptedUpgrade } from './upgrade-answer.js';
import { IdleSweep } from './idle-sweep.js';
import { WebSocketSession } from './web-socket-session.js';
import type { HubSocket, SessionHub } from './session-roles.js';

/**
 * The app's open WebSockets, as `app.webSockets` shows them: how many, broadcast to a topic from
 * anywhere (a service, a job), and the shutdown every server adapter's `close` runs.
 *
 * @example
 * await app.webSockets.publish('posts', post); // every connection subscribed to 'posts'
 * console.log(app.webSockets.size);
 */
export interface WebSockets {
  /** Open connections in this process. */
  readonly size: number;
  /** Sends `data` (a string as it is, anything else as JSON) to every connection subscribed to `topic`, through the app's `pubsub`. */
  publish(topic: string, data: unknown): Promise<void>;
  /**
   * Refuses new upgrades (503), sends 1001 (going away) to every open socket, waits up to
   * `graceMs` (default: the app's `webSocketCloseGraceMs`, 5 000) for their close frames, then
   * drops what is left. Resolves once none is open; calling it again returns the same promise.
   */
  close(graceMs?: number): Promise<void>;
  /**
   * Closes (with `code` and `reason`) every open socket whose upgrade request's context matches,
   * and answers how many: what an auth module does when a credential is revoked, so that a socket
   * never outlives the session or key that opened it.
   *
   * @example
   * app.webSockets.closeWhere((ctx) => ctx.get(TENANT) === tenantId, 1008, 'Tenant suspended');
   */
  closeWhere(match: (ctx: RequestContext) => boolean, code: number, reason: string): number;
  /**
   * The request contexts of the open sockets (each socket's upgrade request): for a check that
   * must look at each, such as which API keys hold sockets now.
   *
   * @example
   * for (const ctx of app.webSockets.contexts()) console.log(ctx.params);
   */
  contexts(): IterableIterator<RequestContext>;
}

/**
 * The app's WebSockets (`app.webSockets`), injectable in every module without an import: a
 * service can `publish` to a topic, or read how many sockets are open.
 *
 * @example
 * defineFactory(Notifier, [WEB_SOCKETS], (sockets) => new Notifier(sockets));
 */
export const WEB_SOCKETS: Token<WebSockets> = createToken<WebSockets>('WebSockets');

/**
 * One app's WebSocket registry and topics. Topics go through the app's PubSub once per topic
 * (not once per connection): a message is encoded once and written to each local subscriber.
 */
export class WebSocketHub implements WebSockets, SessionHub {
  private readonly sessions = new Set<HubSocket>();
  /** The idle checks of every open socket: one timer per idle timeout, walking the registry above. */
  readonly idleSweep = new IdleSweep(this.sessions);
  /** The sockets of each topic; a topic's upstream subscription is one handler on the app's bus. */
  private readonly topics: TopicTable<HubSocket>;
  private readonly handlers = new Map<string, TopicHandler>();
  private closing: Promise<void> | undefined;
  private emptied: (() => void) | undefined;

  constructor(
    readonly logger: Logger,
    private readonly pubsub: PubSub,
    private readonly closeGraceMs: number,
  ) {
    this.topics = new TopicTable({
      subscribe: (topic) => {
        const handler: TopicHandler = (message) => this.topics.deliver(topic, message, sendTo, (error) => this.logger.error({ err: error, topic }, 'A WebSocket send failed'));
        this.handlers.set(topic, handler);
        return this.pubsub.subscribe(topic, handler).catch((error: unknown) => {
          if (this.handlers.get(topic) === handler) this.handlers.delete(topic);
          throw error;
        });
      },
      unsubscribe: (topic) => {
        const handler = this.handlers.get(topic);
        if (handler === undefined) return Promise.resolve();
        this.handlers.delete(topic);
        return this.pubsub.unsubscribe(topic, handler);
      },
    });
  }

  get size(): number {
    return this.sessions.size;
  }

  /**
   * A WebSocket route's handler, after its guards and query validation: checks the handshake,
   * and answers 101 with the session waiting for its adapter (see settleUpgrade).
   */
  accept(ctx: RequestContext & { readonly incoming: IncomingRequest }, spec: WebSocketSpec, where: string): PlainAnswer {
    if (this.closing !== undefined) throw new ServiceUnavailableException('The server is shutting down.');
    const protocol = checkHandshake(ctx, spec);
    return acceptedUpgrade(ctx.incoming, new WebSocketSession(spec, ctx, this, protocol, where), protocol);
  }

  opened(session: HubSocket): void {
    this.sessions.add(session);
    // A socket the adapter opened after shutdown began (its upgrade was already accepted) is told at once.
    if (this.closing !== undefined) session.shut(1001, 'Server shutting down', this.closeGraceMs);
  }

  closed(session: HubSocket): void {
    this.sessions.delete(session);
    if (this.sessions.size === 0) this.emptied?.();
  }

  subscribe(topic: string, session: HubSocket): Promise<void> {
    return this.topics.add(topic, session);
  }

  unsubscribe(topic: string, session: HubSocket): Promise<void> {
    return this.topics.remove(topic, session);
  }

  *contexts(): IterableIterator<RequestContext> {
    for (const session of this.sessions) if (session.isOpen) yield session.context;
  }

  closeWhere(match: (ctx: RequestContext) => boolean, code: number, reason: string): number {
    let closed = 0;
    for (const session of this.sessions) {
      if (!session.isOpen || !match(session.context)) continue;
      session.close(code, reason);
      closed++;
    }
    return closed;
  }

  publish(topic: string, data: unknown): Promise<void> {
    const message = typeof data === 'string' ? data : JSON.stringify(data);
    if (message === undefined) return Promise.reject(new TypeError(`${typeof data} cannot be published (not JSON).`));
    return this.pubsub.publish(topic, message);
  }

  close(graceMs: number = this.closeGraceMs): Promise<void> {
    this.closing ??= this.shutDown(graceMs);
    return this.closing;
  }

  private async shutDown(graceMs: number): Promise<void> {
    for (const session of this.sessions) session.shut(1001, 'Server shutting down', graceMs);
    await this.whenEmpty(graceMs);
    for (const session of this.sessions) session.terminate();
    // A dropped socket reports its close on the next turns of the event loop.
    await this.whenEmpty(1_000);
    if (this.sessions.size > 0) this.logger.warn({ open: this.sessions.size }, 'WebSocket shutdown: sockets still open after terminate');
  }

  private whenEmpty(timeoutMs: number): Promise<void> {
    if (this.sessions.size === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.emptied = undefined;
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      this.emptied = done;
    });
  }
}

/** Writes one topic message to one socket (encoded once by the publisher, written to each). */
function sendTo(session: HubSocket, message: string): void {
  session.sendFrame(message);
}

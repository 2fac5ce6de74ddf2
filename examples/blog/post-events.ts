import { createToken, defineFactory, PUB_SUB, type PubSub } from '../../lib/index.js';
import type { Post } from './post-schemas.js';

/** The topic every created post is published on, as its JSON. */
export const POSTS_TOPIC = 'posts';

/** What publishes created posts: built once per app, it stops with the app (`onModuleDestroy`). */
export interface PostEvents {
  onModuleDestroy(): void;
}

/** The token of the app's {@link PostEvents}. */
export const POST_EVENTS = createToken<PostEvents>('PostEvents');

/**
 * Publishes each post the store creates on the app's PubSub (topic `posts`), where the event
 * stream and the live socket listen. With a shared engine (REDIS_URL, DATABASE_URL), the
 * listeners of every instance hear every instance's posts. A bus that fails loses the push, never
 * the post (the engine logs its own outages).
 *
 * @example
 * defineModule({ providers: [postEventsProvider(PostsStore)], ... });
 */
export function postEventsProvider<S extends { onCreated(listener: (post: Post) => void): () => void }>(store: new (...args: never[]) => S) {
  return defineFactory(POST_EVENTS, [store, PUB_SUB], (posts: S, bus: PubSub): PostEvents => {
    const stop = posts.onCreated((post) => void bus.publish(POSTS_TOPIC, JSON.stringify(post)).catch(() => undefined));
    return { onModuleDestroy: stop };
  });
}

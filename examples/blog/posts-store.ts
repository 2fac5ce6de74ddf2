import { createToken, NotFoundException, type Clock } from '../../lib/index.js';
import type { CreatePost, Post, UpdatePost } from './post-schemas.js';

/** The clock the store stamps `createdAt` with; tests provide a manual one. */
export const CLOCK = createToken<Clock>('CLOCK');

/**
 * The in-memory post store. Ids are a decimal counter starting at 1; `createdAt` comes from the
 * injected clock. Every operation on one post goes through `require`, the single existence
 * check that makes get, update and delete all answer 404 for an unknown id.
 */
export class PostsStore {
  private readonly posts = new Map<string, Post>();
  private readonly createdListeners = new Set<(post: Post) => void>();
  private nextId = 1;

  constructor(private readonly clock: Clock) {}

  list(): Post[] {
    return [...this.posts.values()];
  }

  get(id: string): Post {
    return this.require(id);
  }

  create(input: CreatePost): Post {
    const post: Post = {
      id: String(this.nextId++),
      title: input.title,
      body: input.body,
      createdAt: new Date(this.clock.now()).toISOString(),
    };
    this.posts.set(post.id, post);
    for (const listener of this.createdListeners) listener(post);
    return post;
  }

  /** Calls `listener` for every post created from now on; returns the function that stops it. */
  onCreated(listener: (post: Post) => void): () => void {
    this.createdListeners.add(listener);
    return () => this.createdListeners.delete(listener);
  }

  update(id: string, changes: UpdatePost): Post {
    const current = this.require(id);
    const updated: Post = {
      ...current,
      title: changes.title ?? current.title,
      body: changes.body ?? current.body,
    };
    this.posts.set(id, updated);
    return updated;
  }

  remove(id: string): void {
    this.require(id);
    this.posts.delete(id);
  }

  private require(id: string): Post {
    const post = this.posts.get(id);
    if (!post) throw new NotFoundException(`Post ${id} not found`);
    return post;
  }
}

import { Inject, Injectable } from '../../facade/index.js';
import type { Clock } from '../../lib/index.js';
import { CLOCK, PostsStore } from '../blog/posts-store.js';

/** The blog's store as a class-style provider; `CLOCK` is a token, not a class, so it is named with @Inject. */
@Injectable()
export class PostsService extends PostsStore {
  constructor(@Inject(CLOCK) clock: Clock) {
    super(clock);
  }
}

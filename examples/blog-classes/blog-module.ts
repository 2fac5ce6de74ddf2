import { Module } from '../../facade/index.js';
import { systemClock, type Clock } from '../../lib/index.js';
import { CLOCK } from '../blog/posts-store.js';
import { PostsController } from './posts-controller.js';
import { PostsService } from './posts-service.js';

/**
 * The reference blog, class style. A function so that tests can give it a manual clock.
 *
 * @example
 * const app = await createApp(createClassBlogModule({ clock: createManualClock(0) }));
 */
export function createClassBlogModule(options: { clock?: Clock } = {}) {
  @Module({
    providers: [{ provide: CLOCK, useValue: options.clock ?? systemClock }, PostsService],
    controllers: [PostsController],
  })
  class BlogModule {}
  return BlogModule;
}

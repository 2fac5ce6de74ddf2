import { Module } from '../../facade/index.js';
import { defineProvider, systemClock, type Clock } from '../../lib/index.js';
import { AttachmentsStore } from '../blog/attachments-store.js';
import { DEFAULT_ATTACHMENT_LIMIT } from '../blog/blog-extras.js';
import { CLOCK } from '../blog/posts-store.js';
import { createClassExtrasController } from './blog-extras-controller.js';
import { PostsController } from './posts-controller.js';
import { PostsService } from './posts-service.js';
import { postEventsProvider } from '../blog/post-events.js';

/**
 * The reference blog, class style: the CRUD routes, the event stream and attachments. A function so that tests can give it a manual clock.
 *
 * @example
 * const app = await createApp(createClassBlogModule({ clock: createManualClock(0) }));
 */
export function createClassBlogModule(options: { clock?: Clock; attachmentLimit?: number } = {}) {
  @Module({
    providers: [{ provide: CLOCK, useValue: options.clock ?? systemClock }, PostsService, defineProvider(AttachmentsStore, []), postEventsProvider(PostsService)],
    controllers: [PostsController, createClassExtrasController(options.attachmentLimit ?? DEFAULT_ATTACHMENT_LIMIT)],
  })
  class BlogModule {}
  return BlogModule;
}

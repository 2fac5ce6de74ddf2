import { BodyLimit, Controller, Ctx, Get, HttpCode, Inject, Param, Post, Returns, Ws } from '../../facade/index.js';
import { PUB_SUB, type PubSub, type RequestContext } from '../../lib/index.js';
import { sse } from '../../lib/middleware/index.js';
import { AttachmentsStore } from '../blog/attachments-store.js';
import { AttachmentSummary, attachmentResponse, attachUpload, EXTRAS_DOCS, livePosts, streamPosts } from '../blog/blog-extras.js';
import { Post as PostSchema } from '../blog/post-schemas.js';
import { PostsService } from './posts-service.js';

/**
 * The blog's event stream and attachments, class style: the same routes, behaviour and OpenAPI
 * description as `createBlogExtrasController` (a test compares the two documents). A function,
 * because the attachment limit is a decorator argument.
 *
 * @example
 * @Module({ providers: [PostsService, defineProvider(AttachmentsStore, [])], controllers: [createClassExtrasController(1_048_576)] })
 */
export function createClassExtrasController(attachmentLimit: number) {
  @Controller('posts')
  class BlogExtrasController {
    constructor(
      private readonly posts: PostsService,
      private readonly attachments: AttachmentsStore,
      @Inject(PUB_SUB) private readonly bus: PubSub,
    ) {}

    // One SSE event (JSON data: the post) for every post created while the client listens.
    @Get('events')
    @EXTRAS_DOCS.events
    events(@Ctx() ctx: RequestContext) {
      return sse(ctx, streamPosts(this.bus));
    }

    // A WebSocket: every post created while the client is connected, as JSON.
    @Ws('live', { send: PostSchema })
    live() {
      return livePosts();
    }

    @Post(':id/attachments')
    @HttpCode(201)
    @BodyLimit(attachmentLimit)
    @Returns(AttachmentSummary)
    @EXTRAS_DOCS.attach
    async attach(@Param('id') id: string, @Ctx() ctx: RequestContext) {
      this.posts.get(id); // 404 for an unknown post, before any body is read
      return attachUpload(ctx, this.attachments, id);
    }

    @Get(':id/attachments/:name')
    @EXTRAS_DOCS.attachment
    attachment(@Param('id') id: string, @Param('name') name: string) {
      this.posts.get(id);
      return attachmentResponse(this.attachments, id, name);
    }
  }
  return BlogExtrasController;
}

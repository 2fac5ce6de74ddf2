import { z } from 'zod';
import { BadRequestException, defineController, get, NotFoundException, post, PUB_SUB, ws, type PubSub, type RequestContext, type WebSocketConnection, type WebSocketHandlers } from '../../lib/index.js';
import { readMultipart, sse, type SseStream } from '../../lib/middleware/index.js';
import { ApiRequestBody, ApiResponse } from '../../lib/openapi/index.js';
import { AttachmentsStore } from './attachments-store.js';
import { PostsStore } from './posts-store.js';
import { Post } from './post-schemas.js';
import { POSTS_TOPIC } from './post-events.js';

/** What an upload sends: one file part named `file` (documented as binary). */
export const AttachmentUpload = z.object({ file: z.file() }).meta({ id: 'AttachmentUpload' });

/** What an upload answers: the stored attachment's name, size and type. */
export const AttachmentSummary = z.object({ name: z.string(), size: z.number().int(), contentType: z.string() }).meta({ id: 'AttachmentSummary' });

/** How the blog documents its three non-JSON routes; the class blog uses the same entries. */
export const EXTRAS_DOCS = {
  events: ApiResponse({ status: 200, mediaType: 'text/event-stream', description: 'One `post-created` event (JSON data: the post) for every post created while the client listens.' }),
  attach: ApiRequestBody({ mediaType: 'multipart/form-data', schema: AttachmentUpload, description: 'The file to attach, as the `file` part.' }),
  attachment: ApiResponse({ status: 200, mediaType: 'application/octet-stream', description: 'The file as uploaded; Content-Type is the type it was uploaded with.' }),
} as const;

/** Default for `ATTACHMENT_LIMIT_BYTES`: 1 MiB. */
export const DEFAULT_ATTACHMENT_LIMIT = 1_048_576;

/**
 * The blog's everyday-HTTP showcase beside its CRUD routes: an event stream of created posts and
 * file attachments. The CRUD contract of the specification is untouched.
 *
 * @example
 * defineModule({ name: 'BlogApp', providers: [...], controllers: [postsController, createBlogExtrasController(1_048_576)] });
 */
export function createBlogExtrasController(attachmentLimit: number) {
  return defineController({
    name: 'BlogExtrasController',
    prefix: '/posts',
    inject: [PostsStore, AttachmentsStore, PUB_SUB],
    routes: (posts, attachments, bus) => ({
      // One SSE event (JSON data: the post) for every post created while the client listens.
      events: get('/events', { metadata: [EXTRAS_DOCS.events] }, (ctx) => sse(ctx, streamPosts(bus))),
      // A WebSocket: every post created while the client is connected, as JSON (the SSE stream's data).
      live: ws('/live', { send: Post }, livePosts()),
      attach: post('/:id/attachments', { bodyLimit: attachmentLimit, status: 201, response: AttachmentSummary, metadata: [EXTRAS_DOCS.attach] }, async (ctx) => {
        posts.get(ctx.params.id); // 404 for an unknown post, before any body is read
        return attachUpload(ctx, attachments, ctx.params.id);
      }),
      attachment: get('/:id/attachments/:name', { metadata: [EXTRAS_DOCS.attachment] }, (ctx) => {
        posts.get(ctx.params.id);
        return attachmentResponse(attachments, ctx.params.id, ctx.params.name);
      }),
    }),
  });
}

/**
 * The live route's handlers, shared by both blogs: the socket subscribes to the `posts` topic, so
 * each post created while it is open (on this instance, or on any instance sharing the app's
 * PubSub engine) arrives as one JSON message.
 *
 * @example
 * live: ws('/live', { send: Post }, livePosts()),
 */
export function livePosts(): WebSocketHandlers<WebSocketConnection<object, unknown, z.input<typeof Post>>, string> {
  return { open: (conn) => conn.subscribe(POSTS_TOPIC) };
}

/**
 * The event stream's producer, shared by both blogs and the tenants app: one `post-created` event
 * (JSON data: the post) for each message on `topic` (the blog's `posts` by default) while the
 * client listens.
 *
 * @example
 * events: get('/events', (ctx) => sse(ctx, streamPosts(bus))),
 */
export function streamPosts(bus: PubSub, topic: string = POSTS_TOPIC): (stream: SseStream) => Promise<void> {
  return async (stream) => {
    const handler = (message: string) => {
      const created = JSON.parse(message) as { id: string };
      void stream.send({ event: 'post-created', id: created.id, data: created });
    };
    stream.signal.addEventListener('abort', () => void bus.unsubscribe(topic, handler), { once: true });
    await bus.subscribe(topic, handler);
  };
}

/**
 * The attach route's work, shared by both blogs: keeps the upload's `file` field as an
 * attachment of the post (its name made safe) and describes it; 400 without a file.
 *
 * @example
 * return attachUpload(ctx, attachments, ctx.params.id);
 */
export async function attachUpload(ctx: RequestContext, attachments: AttachmentsStore, postId: string): Promise<z.output<typeof AttachmentSummary>> {
  const form = await readMultipart(ctx, { maxFiles: 1 });
  const file = form.get('file');
  if (!(file instanceof File)) throw new BadRequestException('Expected a `file` field with a file.');
  const name = file.name.replace(/[^\w.-]/g, '_') || 'file';
  const contentType = file.type || 'application/octet-stream';
  attachments.put(postId, { name, contentType, bytes: new Uint8Array(await file.arrayBuffer()) });
  return { name, size: file.size, contentType };
}

/**
 * The attachment route's answer, shared by both blogs: the file with its own media type, or 404.
 *
 * @example
 * return attachmentResponse(attachments, '1', 'hello.txt');
 */
export function attachmentResponse(attachments: AttachmentsStore, postId: string, name: string): Response {
  const found = attachments.find(postId, name);
  if (!found) throw new NotFoundException(`No attachment ${name} on post ${postId}`);
  return new Response(found.bytes, { headers: { 'content-type': found.contentType, 'content-length': String(found.bytes.byteLength) } });
}

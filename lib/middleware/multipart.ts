import { BadRequestException, PayloadTooLargeException, UnsupportedMediaTypeException, isHttpException, type RequestContext } from '../index.js';

/**
 * Options of {@link readMultipart}. The whole body is bounded by the route's `bodyLimit`.
 *
 * @example
 * await readMultipart(ctx, { maxFileBytes: 1_048_576, maxFiles: 1 });
 */
export interface MultipartOptions {
  /** Largest single file, bytes; a larger one is 413. */
  readonly maxFileBytes?: number;
  /** Most files in one request; more is 413. */
  readonly maxFiles?: number;
}

/**
 * Reads a `multipart/form-data` body with the platform's own parser (`Request.formData()`,
 * on every runtime), bounded: the route's `bodyLimit` stops the body as it streams in (413
 * without buffering past it, chunked bodies included), then each file is held to
 * `maxFileBytes`. Another content type is 415; a malformed body is 400.
 *
 * @example
 * post('/posts/:id/attachments', { bodyLimit: 1_048_576 }, async (ctx) => {
 *   const file = (await readMultipart(ctx, { maxFiles: 1 })).get('file');
 * });
 */
export async function readMultipart(ctx: Pick<RequestContext, 'header' | 'request'>, options: MultipartOptions = {}): Promise<FormData> {
  const type = ctx.header('content-type') ?? '';
  if (!/^multipart\/form-data\s*;\s*boundary=/i.test(type)) throw new UnsupportedMediaTypeException('Expected multipart/form-data.');
  let form: FormData;
  try {
    form = await ctx.request.formData();
  } catch (error) {
    if (isHttpException(error)) throw error; // the body limit's 413
    throw new BadRequestException('The multipart body is malformed.');
  }
  let files = 0;
  for (const [, value] of form) {
    if (typeof value === 'string') continue;
    files++;
    if (options.maxFiles !== undefined && files > options.maxFiles) throw new PayloadTooLargeException(`At most ${options.maxFiles} file(s) per request.`);
    if (options.maxFileBytes !== undefined && value.size > options.maxFileBytes) throw new PayloadTooLargeException(`A file exceeds the limit of ${options.maxFileBytes} bytes.`);
  }
  return form;
}

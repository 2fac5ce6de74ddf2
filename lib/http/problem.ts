import { isHttpException } from './http-exception.js';
import type { PlainAnswer } from './answer.js';
import { statusText } from './status-text.js';
import type { Logger } from '../logging/logger.js';

/**
 * The RFC 9457 body every error response carries. Validation failures add `issues`.
 *
 * @example
 * const body: ProblemDetails = { type: 'about:blank', title: 'Not Found', status: 404, detail: 'Post 7 not found' };
 */
export interface ProblemDetails {
  readonly type: string;
  readonly title: string;
  readonly status: number;
  readonly detail?: string;
  readonly [extension: string]: unknown;
}

/** Members an HttpException's details may not overwrite: the problem's own identity. */
const RESERVED = new Set(['type', 'title', 'status']);

/**
 * A problem+json PlainAnswer.
 *
 * @example
 * problemAnswer(404, 'Post 7 not found');
 */
export function problemAnswer(
  status: number,
  detail: string | undefined,
  details?: Readonly<Record<string, unknown>>,
  headers?: Readonly<Record<string, string>>,
  type = 'about:blank',
): PlainAnswer {
  const body: Record<string, unknown> = { type, title: statusText(status), status };
  if (detail !== undefined) body.detail = detail;
  if (details) for (const key of Object.keys(details)) if (!RESERVED.has(key)) body[key] = details[key];
  return {
    status,
    headers: { ...headers, 'content-type': 'application/problem+json' },
    body: JSON.stringify(body),
  };
}

/**
 * Turns anything thrown into a problem response. An HttpException keeps its status and
 * message; anything else is a 500 that says nothing of its cause and is reported to the logger
 * (given as a request context, its request logger, made only when there is something to report).
 *
 * @example
 * errorAnswer(new NotFoundException('Post not found'), logger).status; // 404
 */
export function errorAnswer(error: unknown, to: Logger | { readonly log: Logger }): PlainAnswer {
  const logger = (): Logger => ('log' in to ? to.log : to);
  if (isHttpException(error)) {
    if (error.status >= 500) logger().error({ err: error, status: error.status }, `HTTP ${error.status}: ${error.message}`);
    // `type` may be missing on an HttpException from an older copy of the package.
    return problemAnswer(error.status, error.message, error.details, error.headers, (error as { type?: string }).type ?? 'about:blank');
  }
  logger().error({ err: error }, 'Unhandled error while serving a request');
  return problemAnswer(500, 'The server failed to complete the request.');
}

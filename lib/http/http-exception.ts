import { TesseraError } from '../common/tessera-error.js';
import { statusText } from './status-text.js';

const BRAND = Symbol.for('tessera:http-exception');

/**
 * Optional parts of an HttpException beyond the status, message, details and headers.
 *
 * @example
 * new HttpException(409, 'Title taken', undefined, undefined, { type: 'https://api.example.com/problems/title-taken', code: 'TITLE_TAKEN' });
 */
export interface HttpExceptionOptions {
  /** The problem `type` URI (RFC 9457); default `about:blank`. */
  readonly type?: string;
  /** The stable code; default the status's reason phrase in capitals (`NOT_FOUND`). */
  readonly code?: string;
  readonly cause?: unknown;
}

/** `Not Found` -> `NOT_FOUND`. */
const codeOf = (status: number): string => statusText(status).toUpperCase().replace(/[^A-Z0-9]+/g, '_');

/**
 * An error with an HTTP status. Anything thrown from a guard, interceptor or handler that is an
 * HttpException becomes an RFC 9457 problem+json response with that status; `message` becomes
 * `detail`, `details` are merged into the body, `headers` are sent as given.
 * Never put a token, key, password or secret in any of them.
 *
 * @example
 * throw new HttpException(429, 'Too many requests for this key', undefined, { 'retry-after': '3' });
 */
export class HttpException extends TesseraError {
  readonly status: number;
  readonly details: Readonly<Record<string, unknown>> | undefined;
  readonly headers: Readonly<Record<string, string>> | undefined;
  /** The problem `type` URI; `about:blank` unless given. */
  readonly type: string;

  constructor(status: number, message?: string, details?: Record<string, unknown>, headers?: Record<string, string>, options: HttpExceptionOptions = {}) {
    if (!Number.isInteger(status) || status < 400 || status > 599) {
      throw new RangeError(`HttpException status must be an integer from 400 to 599, got ${status}`);
    }
    super(options.code ?? codeOf(status), message ?? statusText(status), options.cause === undefined ? undefined : { cause: options.cause });
    this.type = options.type ?? 'about:blank';
    this.status = status;
    this.details = details;
    this.headers = headers;
  }

  /** Marks instances across copies of the package, where `instanceof` would fail. */
  get [BRAND](): true {
    return true;
  }
}

/**
 * Whether a thrown value is an {@link HttpException}, even one from another copy of the package.
 *
 * @example
 * catch (err) { if (isHttpException(err)) console.log(err.status); }
 */
export function isHttpException(value: unknown): value is HttpException {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}

type Details = Record<string, unknown> | undefined;
type Headers = Record<string, string> | undefined;

/** 400. @example throw new BadRequestException('Malformed cursor'); */
export class BadRequestException extends HttpException {
  constructor(message = 'Bad Request', details?: Details, headers?: Headers) { super(400, message, details, headers); }
}
/** 401. @example throw new UnauthorizedException('Invalid credentials'); */
export class UnauthorizedException extends HttpException {
  constructor(message = 'Unauthorized', details?: Details, headers?: Headers) { super(401, message, details, headers); }
}
/** 403. @example throw new ForbiddenException('Missing role'); */
export class ForbiddenException extends HttpException {
  constructor(message = 'Forbidden', details?: Details, headers?: Headers) { super(403, message, details, headers); }
}
/** 404. @example throw new NotFoundException('Post not found'); */
export class NotFoundException extends HttpException {
  constructor(message = 'Not Found', details?: Details, headers?: Headers) { super(404, message, details, headers); }
}
/** 405; `allow` lists the path's methods. @example throw new MethodNotAllowedException(['GET', 'POST']); */
export class MethodNotAllowedException extends HttpException {
  constructor(allow: readonly string[], message = 'Method Not Allowed') { super(405, message, undefined, { allow: allow.join(', ') }); }
}
/** 409. @example throw new ConflictException('Title already used'); */
export class ConflictException extends HttpException {
  constructor(message = 'Conflict', details?: Details, headers?: Headers) { super(409, message, details, headers); }
}
/** 413. @example throw new PayloadTooLargeException('Body exceeds 1048576 bytes'); */
export class PayloadTooLargeException extends HttpException {
  constructor(message = 'Content Too Large', details?: Details, headers?: Headers) { super(413, message, details, headers); }
}
/** 415. @example throw new UnsupportedMediaTypeException('Expected application/json'); */
export class UnsupportedMediaTypeException extends HttpException {
  constructor(message = 'Unsupported Media Type', details?: Details, headers?: Headers) { super(415, message, details, headers); }
}
/** 422. @example throw new UnprocessableEntityException('Cannot publish a draft twice'); */
export class UnprocessableEntityException extends HttpException {
  constructor(message = 'Unprocessable Content', details?: Details, headers?: Headers) { super(422, message, details, headers); }
}
/** 429. @example throw new TooManyRequestsException('Slow down', undefined, { 'retry-after': '2' }); */
export class TooManyRequestsException extends HttpException {
  constructor(message = 'Too Many Requests', details?: Details, headers?: Headers) { super(429, message, details, headers); }
}
/** 500, for deliberate server errors whose message is safe to show. @example throw new InternalServerErrorException(); */
export class InternalServerErrorException extends HttpException {
  constructor(message = 'Internal Server Error', details?: Details, headers?: Headers) { super(500, message, details, headers); }
}
/** 503. @example throw new ServiceUnavailableException('Key store unavailable'); */
export class ServiceUnavailableException extends HttpException {
  constructor(message = 'Service Unavailable', details?: Details, headers?: Headers) { super(503, message, details, headers); }
}

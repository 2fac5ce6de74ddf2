import { ServiceUnavailableException, type Logger } from '../../index.js';
import { constantTimeEqual } from '../shared/constant-time-equal.js';
import { AuthConfigError } from '../credentials/jwt/index.js';

/** The public Pwned Passwords service; the range endpoint is `<base>/range/<prefix>`. */
export const DEFAULT_PWNED_PASSWORDS_URL = 'https://api.pwnedpasswords.com';
const DEFAULT_TIMEOUT_MS = 2_000;
// A padded answer is 800-1,000 lines of ~40 bytes; anything far larger is not that API.
const MAX_ANSWER_BYTES = 1_048_576;
const LINE = /^([0-9A-F]{35}):(\d{1,12})$/;

/**
 * Options of {@link pwnedPasswordCheck}.
 *
 * - `baseUrl`: the service (default `https://api.pwnedpasswords.com`; a mirror of your own, or a
 *   local server in tests). https, or http on a loopback address only: over plain http anyone on
 *   the path could answer "never breached" for every password.
 * - `timeoutMs` (default 2 000): the whole exchange, answer body included; past it the service
 *   counts as unavailable.
 * - `failOpen` (default false): when the service is unavailable (timeout, network error, a status
 *   other than 200, an answer that is empty or not the range format), `false` refuses the sign-up, reset
 *   or change with a 503 and asks to try again; `true` accepts the password unchecked. Either
 *   way a warning is logged (with the cause, never the password or its hash).
 * - `minCount` (default 1): how many appearances in breaches refuse a password.
 * - `logger`: where the warning goes (the app's logger).
 * - `fetch`: the fetch to use (default the runtime's).
 */
export interface PwnedPasswordCheckOptions {
  readonly baseUrl?: string;
  readonly timeoutMs?: number;
  readonly failOpen?: boolean;
  readonly minCount?: number;
  readonly logger?: Logger;
  readonly fetch?: typeof fetch;
}

/** What decides when the exchange is abandoned; the clock-free seam of the tests. */
interface PwnedPasswordCheckSeams {
  readonly deadline: (timeoutMs: number) => AbortSignal;
}

/** The refusal's message: says what happened, and that the password was never sent. */
export const BREACHED_PASSWORD_MESSAGE = 'This password has appeared in a data breach; choose another';

const encoder = new TextEncoder();

function readBaseUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AuthConfigError('pwnedPasswordCheck: baseUrl must be an absolute URL');
  }
  const loopback = url.hostname === 'localhost' || url.hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback)) throw new AuthConfigError('pwnedPasswordCheck: baseUrl must be https (http only on a loopback address)');
  if (url.search !== '' || url.hash !== '') throw new AuthConfigError('pwnedPasswordCheck: baseUrl must have no query or fragment');
  return url.href.replace(/\/+$/, '');
}

function readPositiveInteger(value: number, option: string): number {
  if (!Number.isSafeInteger(value) || value <= 0) throw new AuthConfigError(`pwnedPasswordCheck: ${option} must be a positive integer`);
  return value;
}

/** The SHA-1 of the password's UTF-8 bytes, upper-case hex (the API's form). */
async function sha1Hex(password: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-1', encoder.encode(password)));
  let hex = '';
  for (const byte of digest) hex += byte.toString(16).padStart(2, '0');
  return hex.toUpperCase();
}

/** The body as text, refused past `MAX_ANSWER_BYTES` without reading the rest. */
async function boundedText(response: Response): Promise<string> {
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let read = await reader.read(); !read.done; read = await reader.read()) {
    size += read.value.byteLength;
    if (size > MAX_ANSWER_BYTES) {
      await reader.cancel();
      throw new Error('answer too large');
    }
    chunks.push(read.value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

/**
 * How many times the range answer lists `suffix` (0 when absent; padding lines count 0). Every
 * line is compared in constant time and the loop never stops early, so the time taken depends
 * on the answer's length only, not on where (or whether) the password's suffix is in it.
 */
function countOf(body: string, suffix: string): number {
  const wanted = encoder.encode(suffix);
  let count = 0;
  let lines = 0;
  for (const raw of body.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    const match = LINE.exec(line);
    if (match === null) throw new Error('not the range format');
    lines++;
    if (constantTimeEqual(encoder.encode(match[1]), wanted)) count = Number(match[2]);
  }
  // Every prefix has hundreds of suffixes (and padding adds more): an empty list is a broken answer, not "never breached".
  if (lines === 0) throw new Error('an empty range');
  return count;
}

/** @internal The check with its deadline injectable (tests abort it without waiting). */
export function createPwnedPasswordCheck(options: PwnedPasswordCheckOptions, seams: PwnedPasswordCheckSeams): (password: string) => Promise<string | undefined> {
  const base = readBaseUrl(options.baseUrl ?? DEFAULT_PWNED_PASSWORDS_URL);
  const timeoutMs = readPositiveInteger(options.timeoutMs ?? DEFAULT_TIMEOUT_MS, 'timeoutMs');
  const minCount = readPositiveInteger(options.minCount ?? 1, 'minCount');
  const failOpen = options.failOpen ?? false;
  if (typeof failOpen !== 'boolean') throw new AuthConfigError('pwnedPasswordCheck: failOpen must be a boolean');
  const fetchImpl = options.fetch ?? ((input: RequestInfo | URL, init?: RequestInit) => fetch(input, init));
  const logger = options.logger;

  return async (password: string) => {
    const hash = await sha1Hex(password);
    // k-anonymity: only the first 5 hex digits leave; the answer lists every suffix under them.
    const prefix = hash.slice(0, 5);
    let count: number;
    try {
      const response = await fetchImpl(`${base}/range/${prefix}`, {
        headers: { 'add-padding': 'true' },
        signal: seams.deadline(timeoutMs),
        redirect: 'manual',
      });
      if (response.status !== 200) {
        await response.body?.cancel();
        throw new Error(`status ${response.status}`);
      }
      count = countOf(await boundedText(response), hash.slice(5));
    } catch (error) {
      // The cause only: never the password, its hash or the prefix asked for.
      const cause = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError') ? `no answer within ${timeoutMs} ms` : error instanceof Error ? error.message : 'unknown error';
      logger?.warn({ event: 'pwned-passwords-unavailable', failOpen, cause }, `pwnedPasswordCheck: the breached-password service is unavailable (${cause}); the password was ${failOpen ? 'accepted unchecked' : 'refused (503)'}`);
      if (failOpen) return undefined;
      throw new ServiceUnavailableException('The password could not be checked against known data breaches; try again later');
    }
    return count >= minCount ? BREACHED_PASSWORD_MESSAGE : undefined;
  };
}

/**
 * A `passwordPolicy.check` that refuses passwords found in data breaches, through the Have I
 * Been Pwned range API (ASVS 5.0 6.2.12). k-anonymity: only the first 5 hex digits of the
 * password's SHA-1 leave the process; the service answers every suffix it knows under that
 * prefix (padded with decoys, `Add-Padding: true`, so the answer's size says nothing either), and
 * the comparison happens here. Bounded by `timeoutMs`; fails closed (503) unless `failOpen`.
 * Throws `AuthConfigError` at once for a bad option.
 *
 * @example
 * accounts: {
 *   ...,
 *   passwordPolicy: { check: pwnedPasswordCheck({ timeoutMs: 1_500, logger }) },
 * }
 */
export function pwnedPasswordCheck(options: PwnedPasswordCheckOptions = {}): (password: string) => Promise<string | undefined> {
  return createPwnedPasswordCheck(options, { deadline: (ms) => AbortSignal.timeout(ms) });
}

import { TesseraError } from '../common/tessera-error.js';
// Inputs are echoed back to the person who typed them, so they are shortened and quoted: a
// message stays readable and cannot carry a whole request body or control characters.
const MAX_ECHO_LENGTH = 64;

function quote(input: string): string {
  const shown = input.length > MAX_ECHO_LENGTH ? `${input.slice(0, MAX_ECHO_LENGTH)}…` : input;
  return JSON.stringify(shown);
}

/**
 * A network that is not written as `address/prefix` in strict form. The message is safe to show
 * to the user who typed the network (the reference app answers 400 with it).
 *
 * @example
 * try { parseCidr('10.0.0.0/33'); } catch (e) { if (e instanceof InvalidCidrError) e.input; }
 */
export class InvalidCidrError extends TesseraError {
  /** The text that was refused, as given. */
  readonly input: string;

  constructor(input: string, reason: string) {
    super('CIDR_INVALID', `Invalid network ${quote(input)}: ${reason}`);
    this.input = input;
  }
}

/**
 * A network written with host bits set, such as `10.1.2.3/24`. It is most likely a typo for an
 * address or for a different prefix, so it is refused rather than silently widened or narrowed;
 * `suggestion` is the network it probably meant (`10.1.2.0/24`).
 *
 * Extends {@link InvalidCidrError} so one `instanceof` check answers "the user's input is wrong".
 *
 * @example
 * try { parseCidr('2001:db8::1/32'); } catch (e) {
 *   if (e instanceof CidrHostBitsError) e.suggestion; // '2001:db8::/32'
 * }
 */
export class CidrHostBitsError extends InvalidCidrError {
  /** The network with host bits cleared, in canonical form. */
  readonly suggestion: string;

  constructor(input: string, suggestion: string) {
    super(input, `host bits are set; did you mean ${JSON.stringify(suggestion)}?`);
    (this as { code: string }).code = 'CIDR_HOST_BITS';
    this.suggestion = suggestion;
  }
}

/**
 * A network stored on an API key record that cannot be read at request time. Distinct from
 * {@link InvalidCidrError} because it is a server-side data fault, not bad user input: the auth
 * guard answers 503 and never lets the request through. `cause` holds the parse error.
 *
 * @example
 * try { compileAllowedCidrs(record.allowedCidrs); } catch (e) {
 *   if (e instanceof MalformedStoredCidrError) throw new HttpException(503, 'Service Unavailable');
 * }
 */
export class MalformedStoredCidrError extends TesseraError {
  /** Position of the bad entry in the stored list. */
  readonly index: number;

  constructor(index: number, cause: unknown) {
    super('CIDR_STORED_MALFORMED', `Stored network at index ${index} is malformed`, { cause });
    this.index = index;
  }
}

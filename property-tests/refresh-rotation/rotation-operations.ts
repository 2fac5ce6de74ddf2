// The operations of the model-based test and their arbitraries.
import fc from 'fast-check';

/** Number of seeded users (subjects u0, u1, ...). @example Array.from({ length: USER_COUNT }, (_, i) => `u${i}`) */
export const USER_COUNT = 2;
/** Refresh-token lifetime used by the property tests, seconds. @example refreshTokenTtl: TTL_SECONDS */
export const TTL_SECONDS = 600;

/**
 * Which token an operation uses: one ever issued (counted from the newest, so recent tokens,
 * and with them long rotation chains, come up often), or garbage.
 *
 * @example
 * const pick: TokenPick = { kind: 'issued', fromNewest: 1 }; // the second newest token
 */
export type TokenPick = { readonly kind: 'issued'; readonly fromNewest: number } | { readonly kind: 'garbage'; readonly value: string };

/** One step of a generated sequence. @example const op: Operation = { kind: 'advance', ms: 30_000 }; */
export type Operation =
  | { readonly kind: 'signIn'; readonly user: number; readonly identifier: 'known' | 'unknown'; readonly passwordOk: boolean }
  | { readonly kind: 'issueTokens'; readonly user: number | 'unknown' }
  | { readonly kind: 'refresh'; readonly pick: TokenPick }
  | { readonly kind: 'concurrentRefresh'; readonly pick: TokenPick; readonly count: number }
  /** Refresh a token, wait `delayMs`, replay it: aims at both sides of the grace window's edge. */
  | { readonly kind: 'rotateThenReplay'; readonly pick: TokenPick; readonly delayMs: number }
  | { readonly kind: 'signOut'; readonly pick: TokenPick; readonly twice: boolean }
  | { readonly kind: 'refreshRacingRevocation'; readonly pick: TokenPick; readonly revoker: 'signOut' | 'revokeAllSessions' }
  | { readonly kind: 'revokeAllSessions'; readonly user: number }
  | { readonly kind: 'setAccount'; readonly user: number; readonly status: 'ok' | 'disabled' | 'invalid-claims' }
  | { readonly kind: 'advance'; readonly ms: number };

const userArb = fc.nat({ max: USER_COUNT - 1 });

const tokenPickArb: fc.Arbitrary<TokenPick> = fc.oneof(
  { weight: 9, arbitrary: fc.record({ kind: fc.constant('issued' as const), fromNewest: fc.oneof(fc.constant(0), fc.constant(1), fc.nat({ max: 40 })) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('garbage' as const),
      value: fc.oneof(fc.stringMatching(/^[A-Za-z0-9_-]{43}$/), fc.string({ maxLength: 60 })),
    }),
  },
);

const ttlMs = TTL_SECONDS * 1000;
// Boundaries of the 30 s grace window and of refresh expiry, plus anything in between.
// Mostly short steps, so that tokens live long enough to be rotated and replayed.
const advanceArb = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(1, 1_000, 29_999, 30_000, 30_001, 60_000, ttlMs - 1, ttlMs, ttlMs + 1) },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 90_000 }) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: ttlMs }) },
);

/** One random operation, weighted towards refreshes. @example fc.sample(operationArb, 3) */
export const operationArb: fc.Arbitrary<Operation> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('signIn' as const),
      user: userArb,
      identifier: fc.constantFrom('known' as const, 'known' as const, 'known' as const, 'unknown' as const),
      passwordOk: fc.constantFrom(true, true, true, false),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('issueTokens' as const), user: fc.oneof(userArb, fc.constant('unknown' as const)) }) },
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('refresh' as const), pick: tokenPickArb }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('concurrentRefresh' as const), pick: tokenPickArb, count: fc.integer({ min: 2, max: 5 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('rotateThenReplay' as const),
      pick: tokenPickArb,
      delayMs: fc.constantFrom(0, 29_999, 30_000, 30_001, 60_000),
    }),
  },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('signOut' as const), pick: tokenPickArb, twice: fc.boolean() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('refreshRacingRevocation' as const),
      pick: tokenPickArb,
      revoker: fc.constantFrom('signOut' as const, 'revokeAllSessions' as const),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('revokeAllSessions' as const), user: userArb }) },
  {
    weight: 1,
    arbitrary: fc.record({ kind: fc.constant('setAccount' as const), user: userArb, status: fc.constantFrom('ok' as const, 'ok' as const, 'disabled' as const, 'invalid-claims' as const) }),
  },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: advanceArb }) },
);

/** A sequence that starts with a sign-in, so most runs have tokens to play with. @example fc.asyncProperty(operationsArb, async (ops) => {}) */
export const operationsArb: fc.Arbitrary<Operation[]> = fc
  .tuple(userArb, fc.array(operationArb, { minLength: 1, maxLength: 35 }))
  .map(([user, rest]): Operation[] => [{ kind: 'signIn', user, identifier: 'known', passwordOk: true }, ...rest]);

import type { SignInContext } from './sign-in-context.js';
import type { TokenPair } from './token-pair.js';

/** A second factor a pending sign-in may be completed with. @example const kinds: SecondFactorKind[] = ['totp', 'recovery-code']; */
export type SecondFactorKind = 'totp' | 'recovery-code' | 'passkey';

/**
 * The second step of a sign-in: the password (or outside provider) passed, and the session is
 * issued only once `pendingToken` comes back with one of `factors`. The token is single-use and
 * short-lived; it grants nothing by itself.
 *
 * @example
 * const step: SecondFactorStep = { pendingToken: 'q8…', expiresAt: new Date(), factors: ['totp', 'recovery-code'] };
 */
export interface SecondFactorStep {
  readonly pendingToken: string;
  readonly expiresAt: Date;
  readonly factors: readonly SecondFactorKind[];
}

/**
 * What a two-step sign-in answers: a session, or the second step it waits for.
 *
 * @example
 * const step = await auth.beginSignIn(identifier, password, context);
 * if (step.kind === 'second-factor') return secondFactorRequiredAnswer(step.step);
 */
export type SignInStep = { readonly kind: 'session'; readonly pair: TokenPair } | { readonly kind: 'second-factor'; readonly step: SecondFactorStep };

/**
 * What the issuing service hands the gate (see {@link SecondFactorGate.attach}): the only way to
 * start a session without the gate, for after the factor passed, and the ending of a subject's
 * other sessions when a first factor is enabled.
 *
 * @example
 * attach(issuing: GatedSessionIssuing) { this.issuing = issuing; }
 */
export interface GatedSessionIssuing {
  startSession(subject: string, context: SignInContext | undefined): Promise<TokenPair>;
  revokeOtherSessions(subject: string, keepSessionId: string): Promise<void>;
}

/**
 * The one second-factor check every sign-in path passes (password, browser, outside provider,
 * `issueTokens`): `TokenIssuingService` asks it before starting any session. The auth module's
 * `SECOND_FACTORS` service is the gate when `secondFactors` is configured.
 *
 * @example
 * new TokenIssuingService({ ...options, secondFactorGate: factors });
 */
export interface SecondFactorGate {
  /** Whether the subject has a second factor enabled (a confirmed TOTP or a passkey). */
  required(subject: string): Promise<boolean>;
  /** Starts a pending sign-in for the subject. */
  begin(subject: string): Promise<SecondFactorStep>;
  /** Receives the issuing service's ungated session start; called once, by its constructor. */
  attach(issuing: GatedSessionIssuing): void;
}

import { z } from 'zod';
import type { TokenPair } from '../sessions/issuing/token-pair.js';
import type { SessionInfo } from '../sessions/state/session-info.js';

// Bounds on what the mounted routes read. The password policy (minimum length, maximum bytes,
// common passwords) is the account service's and answers its own 400 naming the rule; these only
// keep a request from making the server parse or hash a megabyte.
const Identifier = z.string().min(1).max(320);
const Email = z.string().min(1).max(320);
const Password = z.string().min(1).max(4096);
const MailToken = z.string().min(1).max(200);
const RefreshToken = z.string().min(1).max(1024);

/** Bodies with a password: four 4,096-character passwords' worth of UTF-8 at most. */
export const PASSWORD_BODY_LIMIT = 16_384;
/** Bodies without a password (an address, a token). */
export const SMALL_BODY_LIMIT = 4_096;

/** `POST /sign-in` and `/browser/sign-in`. */
export const SignInBody = z.object({ identifier: Identifier, password: Password });
/** `POST /refresh` and `/sign-out` (JSON). */
export const RefreshBody = z.object({ refreshToken: RefreshToken });
/** `POST /sign-up`. */
export const SignUpBody = z.object({ email: Email, password: Password });
/** `POST /password/forgot`, `/verify-email/resend`. */
export const EmailBody = z.object({ email: Email });
/** `POST /verify-email`, `/email/confirm`. */
export const MailTokenBody = z.object({ token: MailToken });
/** `POST /password/reset`. */
export const ResetPasswordBody = z.object({ token: MailToken, password: Password });
/** `POST /password/change`. */
export const ChangePasswordBody = z.object({ currentPassword: Password, newPassword: Password });
/** `POST /email/change`. */
export const ChangeEmailBody = z.object({ currentPassword: Password, newEmail: Email });

/** The answer of JSON sign-in and refresh (documentation: the handler returns it as is). */
export const TokenPairAnswer = z.object({
  accessToken: z.string(),
  refreshToken: z.string(),
  accessTokenExpiresAt: z.string().describe('ISO 8601'),
  refreshTokenExpiresAt: z.string().describe('ISO 8601'),
});
/** The answer of browser sign-in and refresh: never a token, only expiries and the CSRF token. */
export const BrowserSessionAnswer = z.object({
  accessTokenExpiresAt: z.string().describe('ISO 8601'),
  refreshTokenExpiresAt: z.string().describe('ISO 8601'),
  csrfToken: z.string().describe('Echo it in X-CSRF-Token on every unsafe request'),
});
/** The answer of the requests that must not tell whether an address has an account. */
export const MailAcceptedAnswer = z.object({ message: z.string() });
/** One entry of `GET /sessions`. */
export const SessionAnswer = z.object({
  id: z.string(),
  current: z.boolean().describe('The session of this request'),
  startedAt: z.string().describe('ISO 8601'),
  lastUsedAt: z.string().describe('ISO 8601'),
  userAgent: z.string().nullable(),
  clientAddress: z.string().nullable(),
});

/** The one answer of the mail-sending requests, whatever happened. */
export const MAIL_ACCEPTED = Object.freeze({ message: 'If the address can receive it, a mail is on its way.' });

/**
 * A token pair with its dates as ISO strings, as the JSON routes answer it.
 *
 * @example
 * tokenPairJson(await service.signIn(identifier, password)); // { accessToken, refreshToken, accessTokenExpiresAt: '2026-...', ... }
 */
export function tokenPairJson(pair: TokenPair): z.output<typeof TokenPairAnswer> {
  return {
    accessToken: pair.accessToken,
    refreshToken: pair.refreshToken,
    accessTokenExpiresAt: pair.accessTokenExpiresAt.toISOString(),
    refreshTokenExpiresAt: pair.refreshTokenExpiresAt.toISOString(),
  };
}

/**
 * A session as `GET /sessions` shows it: dates as ISO strings, and whether it is the caller's own.
 *
 * @example
 * sessionJson(session, ownSessionId); // { id, current: true, startedAt: '2026-...', ... }
 */
export function sessionJson(session: SessionInfo, ownSessionId: string | undefined): z.output<typeof SessionAnswer> {
  return {
    id: session.id,
    current: session.id === ownSessionId,
    startedAt: session.startedAt.toISOString(),
    lastUsedAt: session.lastUsedAt.toISOString(),
    userAgent: session.userAgent ?? null,
    clientAddress: session.clientAddress ?? null,
  };
}

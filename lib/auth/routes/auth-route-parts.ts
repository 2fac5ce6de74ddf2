import type { ClassToken, Guard, InterceptorToken, StateKey, Token } from '../../index.js';
import type { AccountService } from '../accounts/account-service.js';
import type { BrowserSessions } from '../sessions/browser/browser-sessions.js';
import type { SignInStep } from '../sessions/issuing/second-factor-gate.js';
import type { SignInContext } from '../sessions/issuing/sign-in-context.js';
import type { TokenPair } from '../sessions/issuing/token-pair.js';
import type { SessionInfo } from '../sessions/state/session-info.js';
import type { AccountRouteThrottle } from '../throttle/account-route-throttle.js';
import type { CallerReader } from './own-session.js';

/** What the mounted routes call of `AUTH_SERVICE`. */
export interface RouteSessionService {
  beginSignIn(identifier: string, password: string, context?: SignInContext): Promise<SignInStep>;
  refresh(refreshToken: string): Promise<TokenPair>;
  signOut(refreshToken: string): Promise<void>;
  listSessions(subject: string): Promise<readonly SessionInfo[]>;
  revokeSession(subject: string, sessionId: string): Promise<boolean>;
  revokeOtherSessions(subject: string, keepSessionId: string): Promise<void>;
  revokeAllSessions(subject: string): Promise<void>;
}

/**
 * What one auth module hands its mounted controllers: its tokens and guards, the route prefix and
 * the OpenAPI person schemes.
 *
 * @example
 * const controllers = authRouteControllers(options.routes, parts, { json: true, ... });
 */
export interface AuthRouteParts<Claims> {
  /** The prefix, without a trailing slash (`/auth`). */
  readonly prefix: string;
  readonly sessions: Token<RouteSessionService>;
  readonly browserSessions: Token<BrowserSessions>;
  readonly accounts: Token<AccountService<Claims>>;
  readonly throttle: Token<AccountRouteThrottle | null>;
  /** The runtime (`tokenFacts`), resolved like any provider. */
  readonly runtime: Token<CallerReader['runtime']>;
  readonly currentUser: StateKey<unknown>;
  /** `JwtAuthGuard`: a person's token or browser session, never an API key. */
  readonly personGuard: ClassToken<Guard>;
  /** `requireRecentAuth()` with the module's freshness. */
  readonly recentAuthGuard: ClassToken<Guard>;
  /** `NoStore`, on the answers that carry tokens. */
  readonly noStore: InterceptorToken;
  readonly personSchemes: readonly string[] | undefined;
}

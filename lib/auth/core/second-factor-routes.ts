import { z } from 'zod';
import { defineController, del, get, NotFoundException, post, UnauthorizedException, type ClassToken, type ControllerInput, type Guard, type MetadataEntry, type RequestContext, type Token } from '../../index.js';
import { Public } from './auth-metadata.js';
import type { BrowserSessions } from '../sessions/browser/browser-sessions.js';
import type { SignInContext } from '../sessions/issuing/sign-in-context.js';
import type { TokenPair } from '../sessions/issuing/token-pair.js';
import { NoStore } from './no-store.js';
import { getAccountId, getPrincipal } from '../federation/principal.js';
import type { SecondFactorService } from '../factors/second-factor-service.js';
import type { SecondFactorProof } from '../factors/second-factor-proof.js';
/** Small bodies: a code, a token, or a WebAuthn response (a few kilobytes at most). */
const SMALL_BODY = 16 * 1024;

const Code = z.string().min(1).max(64);
/** One factor: a TOTP code, a recovery code, or a passkey's authentication response. */
const Proof = z.union([z.object({ code: Code }).strict(), z.object({ recoveryCode: Code }).strict(), z.object({ passkey: z.record(z.string(), z.unknown()) }).strict()]);
const SecondStep = z.object({ pendingToken: z.string().min(1).max(128) }).and(Proof);
const ConfirmTotp = z.object({ code: Code });
const PasskeyResponse = z.object({ response: z.record(z.string(), z.unknown()) });
const EnrolTotp = z.object({ accountName: z.string().min(1).max(320).optional() }).optional();

type ProofBody = z.infer<typeof Proof>;

function proofOf(body: ProofBody): SecondFactorProof {
  if ('code' in body) return { totp: body.code };
  if ('recoveryCode' in body) return { recoveryCode: body.recoveryCode };
  return { passkey: body.passkey };
}

function pairToJson(pair: TokenPair) {
  return { accessToken: pair.accessToken, refreshToken: pair.refreshToken, accessTokenExpiresAt: pair.accessTokenExpiresAt.toISOString(), refreshTokenExpiresAt: pair.refreshTokenExpiresAt.toISOString() };
}

/**
 * The tokens and guards of one auth module that {@link secondFactorControllers} uses (a subset of
 * what `defineAuthModule` returns).
 *
 * @example
 * const parts: SecondFactorRouteParts = auth; // the object defineAuthModule returned
 */
export interface SecondFactorRouteParts {
  readonly SECOND_FACTORS: Token<SecondFactorService>;
  readonly BROWSER_SESSIONS: Token<BrowserSessions>;
  readonly StepUpGuard: ClassToken<Guard>;
  readonly getCurrentUser: (ctx: Pick<RequestContext, 'get'> | undefined) => unknown;
}

/**
 * Options of {@link secondFactorControllers}.
 *
 * @example
 * secondFactorControllers(auth, { browser: true, signedInGuards: [auth.JwtAuthGuard] });
 */
export interface SecondFactorRouteOptions {
  /** Adds the cookie routes (`/auth/browser/second-factor`, `/auth/browser/passkey-sign-in`); needs `browser`. Default false. */
  readonly browser?: boolean;
  /** Route prefix; default `/auth`. */
  readonly prefix?: string;
  /** Guards every signed-in route runs after the app's (e.g. a token-only guard); default none. */
  readonly signedInGuards?: readonly ClassToken<Guard>[];
  /** Extra metadata for the signed-in routes (OpenAPI security, responses). */
  readonly signedInMetadata?: readonly MetadataEntry[];
  /** Extra metadata for the public routes (OpenAPI security, responses). */
  readonly publicMetadata?: readonly MetadataEntry[];
  /** The sign-in context (client address, user agent) of a request; default `ctx.clientAddress` and `User-Agent`. */
  readonly signInContext?: (ctx: RequestContext) => SignInContext;
}

/**
 * The second-factor routes as controllers (JSON, and with `browser` the cookie routes) an app (or the auth module's route groups) includes.
 * Signed-in routes need an authenticated session (list them under `protectAllRoutes`, or give
 * `signedInGuards`); removing the TOTP and regenerating recovery codes also pass `StepUpGuard`.
 *
 * | Route | Who | Does |
 * |---|---|---|
 * | `POST /auth/second-factor` | public | `{ pendingToken, code \| recoveryCode \| passkey }` → the token pair |
 * | `GET /auth/factors` | signed in | what is enabled |
 * | `POST /auth/factors/totp` | signed in | enrol: `{ uri, secret }`, shown once |
 * | `POST /auth/factors/totp/confirm` | signed in | `{ code }` → `{ recoveryCodes }` the first time |
 * | `DELETE /auth/factors/totp` | step-up | removes the TOTP |
 * | `POST /auth/factors/recovery-codes` | step-up | ten new codes, shown once |
 * | `POST /auth/factors/step-up` | signed in | `{ code \| recoveryCode \| passkey }` → 204 |
 * | `POST /auth/factors/step-up/passkey-options` | signed in | WebAuthn options for a step-up |
 * | `POST /auth/passkeys/registration-options` | signed in | WebAuthn creation options |
 * | `POST /auth/passkeys` | signed in | `{ response }` → `{ id, recoveryCodes }` |
 * | `GET /auth/passkeys` | signed in | the person's passkeys (ids, transports, dates) |
 * | `DELETE /auth/passkeys/:id` | step-up | removes one (404 for another person's) |
 * | `POST /auth/passkeys/authentication-options` | public | WebAuthn request options (sign-in, second step) |
 * | `POST /auth/passkeys/sign-in` | public | `{ response }` → the token pair |
 * | `POST /auth/browser/second-factor`, `/auth/browser/passkey-sign-in` | public, same origin | as above, answered with the session cookies |
 *
 * @example
 * controllers: [...secondFactorControllers(auth, { browser: true })]
 */
export function secondFactorControllers(parts: SecondFactorRouteParts, options: SecondFactorRouteOptions = {}): ControllerInput[] {
  const signedIn = { guards: [...(options.signedInGuards ?? [])], metadata: [...(options.signedInMetadata ?? [])], bodyLimit: SMALL_BODY };
  const stepUp = { guards: [...(options.signedInGuards ?? []), parts.StepUpGuard], metadata: [...(options.signedInMetadata ?? [])], bodyLimit: SMALL_BODY };
  const open = { metadata: [Public(), ...(options.publicMetadata ?? [])], bodyLimit: SMALL_BODY };
  const contextOf = options.signInContext ?? ((ctx: RequestContext): SignInContext => ({ clientAddress: ctx.clientAddress, userAgent: ctx.header('user-agent') ?? undefined }));
  // The local account of the app's own session, as the guards recorded it (ASVS 6.8.1): an
  // outside issuer's token names the provider's person, never the local account with its `sub`,
  // and an API key is no person; both get the 401 a bad token gets.
  const subjectOf = (ctx: RequestContext): string => {
    const subject = getAccountId(ctx);
    if (subject === undefined || subject === '') throw new UnauthorizedException('Authentication required', undefined, { 'www-authenticate': 'Bearer' });
    return subject;
  };
  const sessionIdOf = (ctx: RequestContext): string | undefined => {
    const principal = getPrincipal(ctx);
    return principal?.kind === 'session' ? principal.sessionId : undefined;
  };
  const json = defineController({
    name: 'SecondFactorController',
    prefix: options.prefix ?? '/auth',
    inject: [parts.SECOND_FACTORS],
    routes: (factors: SecondFactorService) => {
      return {
        secondStep: post('/second-factor', { ...open, body: SecondStep, interceptors: [NoStore] }, async (ctx) => pairToJson(await factors.completeSignIn(ctx.body.pendingToken, proofOf(ctx.body), contextOf(ctx)))),
        status: get('/factors', signedIn, (ctx) => factors.status(subjectOf(ctx))),
        enrolTotp: post('/factors/totp', { ...signedIn, body: EnrolTotp, interceptors: [NoStore] }, (ctx) => {
          const subject = subjectOf(ctx);
          const email = (parts.getCurrentUser(ctx) as { email?: unknown }).email;
          return factors.enrolTotp(subject, ctx.body?.accountName ?? (typeof email === 'string' ? email : subject));
        }),
        confirmTotp: post('/factors/totp/confirm', { ...signedIn, body: ConfirmTotp, interceptors: [NoStore] }, async (ctx) => {
          const { recoveryCodes } = await factors.confirmTotp(subjectOf(ctx), ctx.body.code, sessionIdOf(ctx), contextOf(ctx));
          return { recoveryCodes: recoveryCodes === undefined ? null : [...recoveryCodes] };
        }),
        removeTotp: del('/factors/totp', stepUp, async (ctx) => {
          await factors.removeTotp(subjectOf(ctx));
        }),
        regenerateRecoveryCodes: post('/factors/recovery-codes', { ...stepUp, interceptors: [NoStore] }, async (ctx) => ({ recoveryCodes: [...(await factors.regenerateRecoveryCodes(subjectOf(ctx)))] })),
        stepUp: post('/factors/step-up', { ...signedIn, body: Proof }, async (ctx) => {
          const sessionId = sessionIdOf(ctx);
          if (sessionId === undefined) throw new UnauthorizedException('Step-up needs a session of this app');
          await factors.stepUp(subjectOf(ctx), sessionId, proofOf(ctx.body), contextOf(ctx));
        }),
        stepUpPasskeyOptions: post('/factors/step-up/passkey-options', signedIn, (ctx) => factors.passkeyAuthenticationOptions(subjectOf(ctx))),
        passkeyRegistrationOptions: post('/passkeys/registration-options', signedIn, (ctx) => {
          const email = (parts.getCurrentUser(ctx) as { email?: unknown }).email;
          const subject = subjectOf(ctx);
          return factors.passkeyRegistrationOptions(subject, typeof email === 'string' ? email : subject);
        }),
        registerPasskey: post('/passkeys', { ...signedIn, body: PasskeyResponse, status: 201, interceptors: [NoStore] }, async (ctx) => {
          const { id, recoveryCodes } = await factors.registerPasskey(subjectOf(ctx), ctx.body.response, sessionIdOf(ctx));
          return { id, recoveryCodes: recoveryCodes === undefined ? null : [...recoveryCodes] };
        }),
        listPasskeys: get('/passkeys', signedIn, async (ctx) => (await factors.listPasskeys(subjectOf(ctx))).map((p) => ({ ...p, createdAt: p.createdAt.toISOString(), lastUsedAt: p.lastUsedAt?.toISOString() ?? null }))),
        // Another person's passkey answers exactly as an unknown one: 404.
        removePasskey: del('/passkeys/:id', stepUp, async (ctx) => {
          if (!(await factors.removePasskey(subjectOf(ctx), ctx.params.id))) throw new NotFoundException('No such passkey');
        }),
        passkeyAuthenticationOptions: post('/passkeys/authentication-options', open, () => factors.passkeyAuthenticationOptions()),
        passkeySignIn: post('/passkeys/sign-in', { ...open, body: PasskeyResponse, interceptors: [NoStore] }, async (ctx) => pairToJson(await factors.signInWithPasskey(ctx.body.response, contextOf(ctx)))),
      };
    },
  });
  if (options.browser !== true) return [json];
  const cookies = defineController({
    name: 'BrowserSecondFactorController',
    prefix: `${options.prefix ?? '/auth'}/browser`,
    inject: [parts.SECOND_FACTORS, parts.BROWSER_SESSIONS],
    routes: (factors: SecondFactorService, browser: BrowserSessions) => {
      return {
        secondStep: post('/second-factor', { ...open, body: SecondStep }, (ctx) => browser.startSession(ctx, (context) => factors.completeSignIn(ctx.body.pendingToken, proofOf(ctx.body), context))),
        passkeySignIn: post('/passkey-sign-in', { ...open, body: PasskeyResponse }, (ctx) => browser.startSession(ctx, (context) => factors.signInWithPasskey(ctx.body.response, context))),
      };
    },
  });
  return [json, cookies];
}

import { z } from 'zod';
import { defineController, post } from '../../lib/index.js';
import { getAccountId, Public, type AccountService, type BrowserSessions } from '../../lib/auth/index.js';
import { ApiResponse, ApiTags } from '../../lib/openapi/index.js';
import { auth } from './claims.js';
import { PUBLIC_OPERATION, UNAUTHORIZED } from './openapi.js';
import { SIGN_IN_CONTEXT, type SignInContextReader } from './sign-in-context.js';

// Bounds on what is read; the password policy (minimum length, maximum bytes) is the service's.
const Email = z.string().min(1).max(320);
const Password = z.string().min(1).max(4096);
const Token = z.string().min(1).max(200);

const SignUp = z.object({ email: Email, password: Password });
const EmailOnly = z.object({ email: Email });
const TokenOnly = z.object({ token: Token });
const Reset = z.object({ token: Token, password: Password });
const ChangePassword = z.object({ currentPassword: Password, newPassword: Password });
const ChangeEmail = z.object({ currentPassword: Password, newEmail: Email });

/** The one answer of the requests that must not tell whether an address has an account. */
const ACCEPTED = Object.freeze({ message: 'If the address can receive it, a mail is on its way.' });
const MAIL_ACCEPTED = ApiResponse({ status: 202, description: 'The same answer whether or not the address has an account' });
const LINK_REFUSED = ApiResponse({ status: 400, description: 'Invalid input, a password the policy refuses, or a link that is invalid or has expired' });

/**
 * The account lifecycle over HTTP: sign-up, e-mail verification, password reset. Public: the
 * caller has no credential yet. Each mail carries a link with `token=` in its query (to
 * `APP_URL`), whose page posts the token here.
 */
export const accountController = defineController({
  name: 'AccountController',
  prefix: '/auth',
  inject: [auth.ACCOUNT_SERVICE],
  metadata: [Public(), PUBLIC_OPERATION, ApiTags('Auth')],
  routes: (accounts: AccountService) => ({
    signUp: post('/sign-up', { body: SignUp, status: 202, metadata: [MAIL_ACCEPTED, LINK_REFUSED] }, async (ctx) => {
      await accounts.signUp(ctx.body.email, ctx.body.password);
      return ACCEPTED;
    }),
    verifyEmail: post('/verify-email', { body: TokenOnly, metadata: [ApiResponse({ status: 204, description: 'The address is verified' }), LINK_REFUSED] }, async (ctx) => {
      await accounts.verifyEmail(ctx.body.token);
    }),
    forgotPassword: post('/password/forgot', { body: EmailOnly, status: 202, metadata: [MAIL_ACCEPTED, LINK_REFUSED] }, async (ctx) => {
      await accounts.requestPasswordReset(ctx.body.email);
      return ACCEPTED;
    }),
    resetPassword: post('/password/reset', { body: Reset, metadata: [ApiResponse({ status: 204, description: 'The password is set; every session of the account has ended' }), LINK_REFUSED] }, async (ctx) => {
      await accounts.resetPassword(ctx.body.token, ctx.body.password);
    }),
    confirmEmailChange: post('/email/confirm', { body: TokenOnly, metadata: [ApiResponse({ status: 204, description: 'The account now has the new address' }), LINK_REFUSED] }, async (ctx) => {
      await accounts.confirmEmailChange(ctx.body.token);
    }),
  }),
});

/**
 * What a signed-in person changes about their account (a token or the browser session; never
 * an API key): the password (ends their other sessions) and the address (confirmed at the new one).
 * Both check the current password, counted by the sign-in throttle as a sign-in from the caller's
 * address would be.
 */
export const accountSettingsController = defineController({
  name: 'AccountSettingsController',
  prefix: '/auth',
  inject: [auth.ACCOUNT_SERVICE, auth.BROWSER_SESSIONS, SIGN_IN_CONTEXT],
  metadata: [ApiTags('Auth'), UNAUTHORIZED],
  routes: (accounts: AccountService, browser: BrowserSessions, context: SignInContextReader) => ({
    changePassword: post('/password/change', { body: ChangePassword, guards: [auth.AccountGuard], metadata: [ApiResponse({ status: 204, description: 'Changed; every other session has ended' }), ApiResponse({ status: 403, description: 'Wrong current password' })] }, async (ctx) => {
      await accounts.changePassword({ subject: getAccountId(ctx) as string, sessionId: browser.sessionIdOf(ctx) ?? '', currentPassword: ctx.body.currentPassword, newPassword: ctx.body.newPassword, context: context(ctx) });
    }),
    changeEmail: post('/email/change', { body: ChangeEmail, status: 202, guards: [auth.AccountGuard], metadata: [MAIL_ACCEPTED, ApiResponse({ status: 403, description: 'Wrong current password' })] }, async (ctx) => {
      await accounts.requestEmailChange({ subject: getAccountId(ctx) as string, currentPassword: ctx.body.currentPassword, newEmail: ctx.body.newEmail, context: context(ctx) });
      return ACCEPTED;
    }),
  }),
});

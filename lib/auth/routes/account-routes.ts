import { defineController, post, type MetadataEntry } from '../../index.js';
import { ACCESS_PUBLIC } from '../../internal/access-rules.js';
import type { AccountService } from '../accounts/account-service.js';
import type { AccountRouteThrottle } from '../throttle/account-route-throttle.js';
import type { AuthRouteParts } from './auth-route-parts.js';
import { ownSessionOf, type CallerReader } from './own-session.js';
import { answers, AUTH_TAG, BAD_REQUEST, personSecurity, summary, THROTTLED, TOO_LARGE, UNAUTHORIZED } from './route-docs.js';
import { signInContextOf } from './token-routes.js';
import { ChangeEmailBody, ChangePasswordBody, EmailBody, MAIL_ACCEPTED, MailAcceptedAnswer, MailTokenBody, PASSWORD_BODY_LIMIT, ResetPasswordBody, SignUpBody, SMALL_BODY_LIMIT } from './route-schemas.js';

const ACCEPTED = answers({ status: 202, description: 'The same answer whether or not the address has an account', schema: MailAcceptedAnswer });
const LINK_REFUSED = BAD_REQUEST('A body the route does not accept, a password the policy refuses (naming the rule), or a link that is invalid or has expired');
const WRONG_PASSWORD = answers({ status: 403, description: 'Wrong current password; an API key or an identity provider\u2019s token; or a cookie request without its CSRF token' });

/**
 * `routes.accounts`, the public half: sign-up, verification (and a new link), password reset, and
 * the confirmation of an e-mail change. Each mail's link (to `accounts.links`) carries `token=`,
 * which the app's page posts here. Sign-up and the requests that send mail are throttled per
 * client address and per address mailed (`routes.throttle`, 429) before anything is hashed,
 * stored or sent; their answer is the same whether or not the address has an account.
 *
 * @example
 * defineModule({ name: 'Auth', controllers: [accountRoutes(parts)] });
 */
export function accountRoutes<Claims>(parts: AuthRouteParts<Claims>) {
  const mailing: MetadataEntry[] = [ACCEPTED, BAD_REQUEST('A body the route does not accept, or a malformed address'), THROTTLED];
  return defineController({
    name: 'AccountController',
    prefix: parts.prefix,
    inject: [parts.accounts, parts.throttle],
    metadata: [ACCESS_PUBLIC.with(true), AUTH_TAG, TOO_LARGE],
    routes: (accounts: AccountService<Claims>, throttle: AccountRouteThrottle | null) => ({
      signUp: post('/sign-up', { body: SignUpBody, status: 202, bodyLimit: PASSWORD_BODY_LIMIT, metadata: [summary('Sign up: an account whose address must be verified', 'A taken address gets a notice instead of a verification mail; the answer is the same.'), ACCEPTED, LINK_REFUSED, THROTTLED] }, async (ctx) => {
        await throttle?.check('sign-up', ctx.body.email, ctx.clientAddress);
        await accounts.signUp(ctx.body.email, ctx.body.password);
        return MAIL_ACCEPTED;
      }),
      verifyEmail: post('/verify-email', { body: MailTokenBody, bodyLimit: SMALL_BODY_LIMIT, metadata: [summary('Verify an address with the token of its link'), answers({ status: 204, description: 'The address is verified' }), LINK_REFUSED] }, async (ctx) => {
        await accounts.verifyEmail(ctx.body.token);
      }),
      resendVerification: post('/verify-email/resend', { body: EmailBody, status: 202, bodyLimit: SMALL_BODY_LIMIT, metadata: [summary('Mail a new verification link to an unverified address'), ...mailing] }, async (ctx) => {
        await throttle?.check('mail', ctx.body.email, ctx.clientAddress);
        await accounts.requestEmailVerification(ctx.body.email);
        return MAIL_ACCEPTED;
      }),
      forgotPassword: post('/password/forgot', { body: EmailBody, status: 202, bodyLimit: SMALL_BODY_LIMIT, metadata: [summary('Mail a password-reset link'), ...mailing] }, async (ctx) => {
        await throttle?.check('mail', ctx.body.email, ctx.clientAddress);
        await accounts.requestPasswordReset(ctx.body.email);
        return MAIL_ACCEPTED;
      }),
      resetPassword: post('/password/reset', { body: ResetPasswordBody, bodyLimit: PASSWORD_BODY_LIMIT, metadata: [summary('Set a new password with the token of a reset link'), answers({ status: 204, description: 'The password is set; every session of the account has ended' }), LINK_REFUSED] }, async (ctx) => {
        await accounts.resetPassword(ctx.body.token, ctx.body.password);
      }),
      confirmEmailChange: post('/email/confirm', { body: MailTokenBody, bodyLimit: SMALL_BODY_LIMIT, metadata: [summary('Move the account to the address of an e-mail-change link'), answers({ status: 204, description: 'The account now has the new address' }), LINK_REFUSED] }, async (ctx) => {
        await accounts.confirmEmailChange(ctx.body.token);
      }),
    }),
  });
}

/**
 * `routes.accounts`, the signed-in half: change the password (ends the person's other sessions)
 * or the address (confirmed at the new one). A person's own session only (a token or the browser
 * session; never an API key), signed in recently (`recentAuthSeconds`), with the current password
 * (counted by the sign-in throttle as a sign-in from the caller's address would be).
 *
 * @example
 * defineModule({ name: 'Auth', controllers: [accountSettingsRoutes(parts)] });
 */
export function accountSettingsRoutes<Claims>(parts: AuthRouteParts<Claims>) {
  return defineController({
    name: 'AccountSettingsController',
    prefix: parts.prefix,
    inject: [parts.accounts, parts.throttle, parts.runtime],
    guards: [parts.personGuard, parts.recentAuthGuard],
    metadata: [AUTH_TAG, UNAUTHORIZED, WRONG_PASSWORD, TOO_LARGE, ...personSecurity(parts.personSchemes)],
    routes: (accounts: AccountService<Claims>, throttle: AccountRouteThrottle | null, runtime: CallerReader['runtime']) => {
      const caller: CallerReader = { currentUser: parts.currentUser, runtime };
      return {
        changePassword: post('/password/change', { body: ChangePasswordBody, bodyLimit: PASSWORD_BODY_LIMIT, metadata: [summary('Change the password (needs a recent sign-in)'), answers({ status: 204, description: 'Changed; every other session has ended' }), BAD_REQUEST('A body the route does not accept, or a new password the policy refuses'), THROTTLED] }, async (ctx) => {
          const { subject, sessionId } = ownSessionOf(ctx, caller);
          await accounts.changePassword({ subject, sessionId: sessionId ?? '', currentPassword: ctx.body.currentPassword, newPassword: ctx.body.newPassword, context: signInContextOf(ctx) });
        }),
        changeEmail: post('/email/change', { body: ChangeEmailBody, status: 202, bodyLimit: PASSWORD_BODY_LIMIT, metadata: [summary('Change the address: a confirmation link goes to the new one (needs a recent sign-in)'), ACCEPTED, BAD_REQUEST('A body the route does not accept, or a malformed address'), THROTTLED] }, async (ctx) => {
          const { subject } = ownSessionOf(ctx, caller);
          await throttle?.check('mail', ctx.body.newEmail, ctx.clientAddress);
          await accounts.requestEmailChange({ subject, currentPassword: ctx.body.currentPassword, newEmail: ctx.body.newEmail, context: signInContextOf(ctx) });
          return MAIL_ACCEPTED;
        }),
      };
    },
  });
}

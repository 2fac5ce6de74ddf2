import { escapeHtml } from './escape-html.js';

/**
 * What a template renders: the subject line and the plain-text and HTML bodies.
 *
 * @example
 * const content: MailContent = { subject: 'Verify your address', text: '...', html: '<p>...</p>' };
 */
export interface MailContent {
  readonly subject: string;
  readonly text: string;
  readonly html: string;
}

/**
 * What every account mail template receives: the address the mail goes to and the app's name
 * (the `accounts.appName` option).
 *
 * @example
 * const context: AccountMailContext = { email: 'ada@example.com', appName: 'Acme' };
 */
export interface AccountMailContext {
  readonly email: string;
  readonly appName: string;
}

/**
 * One function per mail the account lifecycle sends. Replace any of them through
 * `accounts.templates` (the others keep their defaults); each returns plain text and HTML.
 * Links carry the token in their `token=` query parameter; never log them.
 *
 * - `verifyEmail`: after sign-up (or `requestEmailVerification`), with the verification link.
 * - `signUpAttempt`: someone signed up with an address that already has an account; sent to that
 *   account instead of a verification mail (sign-up answers the same either way), with a
 *   password-reset link in case the owner forgot.
 * - `resetPassword`: the password-reset link.
 * - `passwordChanged`: the password was changed or reset.
 * - `confirmEmailChange`: to the new address, with the link that applies the change.
 * - `emailChanged`: to the old address, once the change applied.
 *
 * @example
 * accounts: { templates: { verifyEmail: ({ link, appName }) => ({ subject: `Welcome to ${appName}`, text: `Confirm: ${link}`, html: `<a href="${link}">Confirm</a>` }) } }
 */
export interface AccountMailTemplates {
  verifyEmail(context: AccountMailContext & { readonly link: string }): MailContent;
  signUpAttempt(context: AccountMailContext & { readonly resetLink: string }): MailContent;
  resetPassword(context: AccountMailContext & { readonly link: string }): MailContent;
  passwordChanged(context: AccountMailContext): MailContent;
  confirmEmailChange(context: AccountMailContext & { readonly link: string; readonly oldEmail: string }): MailContent;
  emailChanged(context: AccountMailContext & { readonly newEmail: string }): MailContent;
}

function mail(subject: string, paragraphs: readonly string[], link?: { readonly href: string; readonly label: string }): MailContent {
  const text = [...paragraphs, ...(link ? [`${link.label}: ${link.href}`] : [])].join('\n\n');
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`);
  if (link) body.push(`<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>`);
  return { subject, text: `${text}\n`, html: `<!doctype html><html><body>${body.join('')}</body></html>` };
}

/**
 * The built-in English templates: short, plain, every link both clickable (HTML) and readable
 * (text).
 *
 * @example
 * defaultAccountMailTemplates.resetPassword({ email, appName: 'Acme', link }).subject; // 'Reset your password for Acme'
 */
export const defaultAccountMailTemplates: AccountMailTemplates = Object.freeze<AccountMailTemplates>({
  verifyEmail: ({ appName, link }) =>
    mail(`Verify your address for ${appName}`, [`Confirm that this address is yours to finish creating your account at ${appName}.`, 'If you did not sign up, ignore this mail.'], { href: link, label: 'Verify this address' }),
  signUpAttempt: ({ appName, email, resetLink }) =>
    mail(
      `Someone tried to sign up to ${appName} with your address`,
      [`Someone tried to create an account at ${appName} with ${email}, which already has one. If it was you, sign in instead, or reset your password if you forgot it.`, 'If it was not you, you can ignore this mail: nothing changed.'],
      { href: resetLink, label: 'Reset your password' },
    ),
  resetPassword: ({ appName, link }) =>
    mail(`Reset your password for ${appName}`, ['Someone asked to reset the password of your account. The link works once, for a limited time.', 'If it was not you, ignore this mail: your password stays as it is.'], { href: link, label: 'Choose a new password' }),
  passwordChanged: ({ appName }) =>
    mail(`Your password for ${appName} was changed`, [`The password of your account at ${appName} was just changed, and your other sessions were signed out.`, 'If it was not you, reset your password at once.']),
  confirmEmailChange: ({ appName, oldEmail, link }) =>
    mail(`Confirm your new address for ${appName}`, [`Confirm that your account at ${appName} should use this address instead of ${oldEmail}.`, 'If you did not ask for this, ignore this mail.'], { href: link, label: 'Use this address' }),
  emailChanged: ({ appName, newEmail }) =>
    mail(`Your address for ${appName} was changed`, [`Your account at ${appName} now uses ${newEmail}; this address no longer signs in.`, 'If it was not you, contact support at once.']),
});

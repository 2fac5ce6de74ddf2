/**
 * Where the links in account mails point: each function turns a token into the URL of the app's
 * page that submits it (the token must end up in the URL; put it in the `token` query parameter
 * so the pages and the tenants example agree).
 *
 * @example
 * links: { verifyEmail: (t) => `https://app.acme.example/verify?token=${t}`, resetPassword: (t) => `https://app.acme.example/reset?token=${t}`, confirmEmailChange: (t) => `https://app.acme.example/email?token=${t}` }
 */
export interface AccountLinks {
  verifyEmail(token: string): string;
  resetPassword(token: string): string;
  confirmEmailChange(token: string): string;
}

/**
 * The links as given, or for a base URL, `<base>/verify-email?token=`, `<base>/reset-password?token=`
 * and `<base>/confirm-email-change?token=` (a trailing slash of the base is dropped). Tokens are
 * base64url, so they need no escaping.
 *
 * @example
 * resolveAccountLinks('https://app.acme.example/').verifyEmail('abc'); // 'https://app.acme.example/verify-email?token=abc'
 */
export function resolveAccountLinks(links: string | AccountLinks): AccountLinks {
  if (typeof links !== 'string') return links;
  const base = links.replace(/\/+$/, '');
  return Object.freeze({
    verifyEmail: (token: string) => `${base}/verify-email?token=${token}`,
    resetPassword: (token: string) => `${base}/reset-password?token=${token}`,
    confirmEmailChange: (token: string) => `${base}/confirm-email-change?token=${token}`,
  });
}

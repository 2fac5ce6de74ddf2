/**
 * What sign-in knows about the caller besides the credential: the client address (for
 * throttling guesses per address) and the user agent (shown in the list of a person's sessions).
 * Routes build it from the request; both fields are optional so that programmatic sign-ins
 * (a script, a test) need not invent them.
 *
 * @example
 * const context: SignInContext = { clientAddress: '203.0.113.7', userAgent: ctx.header('user-agent') };
 * await auth.signIn(identifier, password, context);
 */
export interface SignInContext {
  /** The caller's address as the app's trusted-proxy rules read it (never a raw X-Forwarded-For). */
  readonly clientAddress?: string | undefined;
  /** The request's User-Agent, as sent (stored truncated by the session store). */
  readonly userAgent?: string | undefined;
}

// Outside sign-in (OpenID Connect and OAuth 2.0 providers) and identities keyed by issuer and subject.
export { getPrincipal, getAccountId, type Principal } from './principal.js';
export { OutsideSignIn, FLOW_BINDING_COOKIE } from './outside-sign-in.js';
export { InMemoryIdentityStore } from './in-memory-identity-store.js';
export { InMemorySignInFlowStore } from './in-memory-sign-in-flow-store.js';
export type { IdentityStore, LinkedIdentity } from './identity-store.js';
export type { SignInFlow, SignInFlowStore } from './sign-in-flow-store.js';
export type { OutsideAccounts } from './outside-accounts.js';
export type { OutsideProfile, OutsideProviderOptions, OidcProviderOptions, OAuthProviderOptions } from './outside-provider-options.js';
export type { OutsideSignInOptions } from './outside-sign-in-options.js';

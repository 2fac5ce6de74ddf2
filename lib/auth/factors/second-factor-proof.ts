/**
 * A proof of a second factor: a TOTP code, a recovery code, or a passkey's authentication
 * response (the JSON `navigator.credentials.get` gave, as @simplewebauthn/browser sends it).
 *
 * @example
 * const proof: SecondFactorProof = { totp: '287082' };
 */
export type SecondFactorProof = { readonly totp: string } | { readonly recoveryCode: string } | { readonly passkey: unknown };

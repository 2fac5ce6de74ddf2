import { importOptionalModule } from '../../internal/primitives.js';

/**
 * The WebAuthn relying party the passkeys belong to (`secondFactors.passkeys`).
 *
 * @example
 * const passkeys: PasskeyOptions = { rpId: 'acme.test', rpName: 'Acme', origins: ['https://acme.test'] };
 */
export interface PasskeyOptions {
  /** The relying party id: the site's registrable domain (`acme.test`), or `localhost`. */
  readonly rpId: string;
  /** Shown by the browser and the authenticator: the app's name. */
  readonly rpName: string;
  /** Every origin the ceremonies may come from (`https://app.acme.test`); any other is refused. */
  readonly origins: readonly string[];
  /** How long a challenge lives, seconds; default 300. */
  readonly challengeSeconds?: number;
}

/**
 * A WebAuthn options object as JSON, handed to the browser's `navigator.credentials` (via `PublicKeyCredential.parseCreationOptionsFromJSON` or @simplewebauthn/browser).
 *
 * @example
 * const credential = await navigator.credentials.get({ publicKey: PublicKeyCredential.parseRequestOptionsFromJSON(options) });
 */
export type PasskeyOptionsJson = Readonly<Record<string, unknown>> & { readonly challenge: string };

/** The parts of @simplewebauthn/server these ceremonies call (an optional peer, loaded on first use). */
interface SimpleWebAuthn {
  generateRegistrationOptions(options: Record<string, unknown>): Promise<PasskeyOptionsJson>;
  verifyRegistrationResponse(options: Record<string, unknown>): Promise<{ verified: boolean; registrationInfo?: { credential: { id: string; publicKey: Uint8Array; counter: number; transports?: string[] } } }>;
  generateAuthenticationOptions(options: Record<string, unknown>): Promise<PasskeyOptionsJson>;
  verifyAuthenticationResponse(options: Record<string, unknown>): Promise<{ verified: boolean; authenticationInfo: { newCounter: number; userVerified: boolean } }>;
}

let library: Promise<SimpleWebAuthn> | undefined;

/**
 * @simplewebauthn/server, loaded the first time a passkey ceremony runs, so apps without passkeys
 * need not install it.
 *
 * @throws Error naming the package when it is not installed.
 * @example
 * const webauthn = await loadSimpleWebAuthn();
 */
export function loadSimpleWebAuthn(): Promise<SimpleWebAuthn> {
  library ??= importOptionalModule('@simplewebauthn/server').then(
    (module) => module as SimpleWebAuthn,
    (cause: unknown) => {
      library = undefined;
      throw new Error('passkeys need the optional peer dependency @simplewebauthn/server: npm install @simplewebauthn/server', { cause });
    },
  );
  return library;
}

/** A response's credential id (base64url), read without trusting anything else in it; undefined when it has none. */
export function credentialIdOf(response: unknown): string | undefined {
  const id = (response as { id?: unknown } | null)?.id;
  return typeof id === 'string' && id.length > 0 && id.length <= 1024 && /^[A-Za-z0-9_-]+$/.test(id) ? id : undefined;
}

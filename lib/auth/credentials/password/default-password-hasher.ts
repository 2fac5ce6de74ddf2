import { createPasswordHasher } from './create-password-hasher.js';
import type { PasswordHasher } from './password-hasher.js';

let chosen: PasswordHasher | undefined;
let automatic: Promise<PasswordHasher> | undefined;

/**
 * The hasher behind `hashPassword` and `verifyPassword`: the one set with
 * {@link setDefaultPasswordHasher}, otherwise `createPasswordHasher({ backend: 'auto' })`, chosen
 * on first use (native addon if it loads, else WebAssembly) and then kept.
 *
 * @example
 * const hasher = await getDefaultPasswordHasher();
 */
export function getDefaultPasswordHasher(): Promise<PasswordHasher> {
  if (chosen !== undefined) return Promise.resolve(chosen);
  // One promise shared by concurrent first callers, so the addon is loaded once.
  automatic ??= createPasswordHasher({ backend: 'auto' }).catch((error: unknown) => {
    automatic = undefined;
    throw error;
  });
  return automatic;
}

/**
 * Makes `hasher` the default for `hashPassword`, `verifyPassword` and `getDummyPasswordHash`;
 * `undefined` returns to automatic selection. Call it at startup, before the first sign-in.
 *
 * @example
 * setDefaultPasswordHasher(await createPasswordHasher({ backend: 'worker' }));
 * setDefaultPasswordHasher(await createPasswordHasher({ backend: 'wasm' })); // e.g. on Deno, without the addon
 */
export function setDefaultPasswordHasher(hasher: PasswordHasher | undefined): void {
  chosen = hasher;
}

// The list of common passwords the default password policy refuses (ASVS 5.0 6.2.4, 6.2.12).
//
// Where it comes from: the `passwords-common` dictionary of `@zxcvbn-ts/language-common` (MIT),
// 49,233 passwords ranked by frequency in leaked password sets, lower-case ASCII. A maintained
// package rather than a copy in this repository, so a new release of the list reaches apps
// through their lockfile.
//
// Why a dynamic import: the list costs ~35-70 ms to load and ~3.8 MiB of heap (the package's
// arrays, ~2.6 MiB, plus the Set, ~1.2 MiB; Node 24, this machine), which an app that
// verifies tokens only must not pay. It is loaded once per process, the first time a password
// policy is resolved (so the first sign-up does not wait for it), and shared by every policy.
// `import('literal')` is followed by every bundler (esbuild for workerd, Deno's npm: loader),
// so it works in every runtime the package supports.

let loading: Promise<ReadonlySet<string>> | undefined;

/**
 * The common-password list as a Set of lower-case passwords, loaded on the first call and
 * shared afterwards. A failed load is not cached, so a later call tries again.
 *
 * @example
 * const list = await loadCommonPasswords();
 * list.size; // 49233
 */
export function loadCommonPasswords(): Promise<ReadonlySet<string>> {
  loading ??= import('@zxcvbn-ts/language-common').then(
    ({ dictionary }) => new Set<string>(dictionary['passwords-common']),
    (error: unknown) => {
      loading = undefined;
      throw new Error('The common-password list (@zxcvbn-ts/language-common) could not be loaded', { cause: error });
    },
  );
  return loading;
}

/**
 * The form a password is compared with the list in: Unicode compatibility-folded (NFKC:
 * fullwidth `ｐａｓｓ` is `pass`) and lower-cased, so `PassWordPassWord` is as common as
 * `passwordpassword`. Only for the comparison: the password is hashed exactly as typed.
 */
function fold(password: string): string {
  return password.normalize('NFKC').toLowerCase();
}

/**
 * Whether `password`, case-folded, is on the common-password list (see
 * {@link loadCommonPasswords}). One Set lookup after the first load: ~0.45 µs, most of it the
 * Unicode normalisation.
 *
 * @example
 * await isCommonPassword('PasswordPassword'); // true
 * await isCommonPassword('correct horse battery staple'); // false
 */
export async function isCommonPassword(password: string): Promise<boolean> {
  return (await loadCommonPasswords()).has(fold(password));
}

/**
 * Argon2id cost parameters, as recorded in a PHC string (`m=...,t=...,p=...`).
 *
 * @example
 * const cheap: Argon2Parameters = { memoryCost: 8192, timeCost: 1, parallelism: 1 };
 */
export interface Argon2Parameters {
  /** Memory in KiB (`m`). */
  readonly memoryCost: number;
  /** Number of passes over memory (`t`). */
  readonly timeCost: number;
  /** Number of lanes (`p`). Part of the hash: changing it changes the output. */
  readonly parallelism: number;
}

/**
 * The cost used for new hashes (SPEC "Limits": Argon2id, m=19456, t=2, p=1; the OWASP minimum).
 * Existing hashes keep verifying with the cost stored in them when this changes.
 *
 * @example
 * DEFAULT_ARGON2_PARAMETERS.memoryCost; // 19456
 */
export const DEFAULT_ARGON2_PARAMETERS: Argon2Parameters = Object.freeze({
  memoryCost: 19_456,
  timeCost: 2,
  parallelism: 1,
});

/**
 * Salt length for new hashes, in bytes (RFC 9106 recommends 16).
 *
 * @example
 * new Uint8Array(ARGON2_SALT_LENGTH);
 */
export const ARGON2_SALT_LENGTH = 16;

/**
 * Output length for new hashes, in bytes.
 *
 * @example
 * ARGON2_HASH_LENGTH; // 32
 */
export const ARGON2_HASH_LENGTH = 32;

/**
 * Bounds on what a hash may ask for. A stored hash dictates the work done to verify it, so a
 * corrupted or planted row must not be able to demand gigabytes of memory or minutes of CPU.
 * Lengths follow the reference implementation's minimums (salt >= 8 bytes) but refuse outputs
 * too short to be a password hash at all.
 *
 * @example
 * ARGON2_LIMITS.maxMemoryCost; // 1048576 (1 GiB in KiB)
 */
export const ARGON2_LIMITS = Object.freeze({
  maxMemoryCost: 1_048_576,
  minTimeCost: 1,
  maxTimeCost: 64,
  minParallelism: 1,
  // The native backend refuses more than 255 lanes; accepting more would make hashes that only
  // one backend can verify.
  maxParallelism: 255,
  minSaltLength: 8,
  maxSaltLength: 64,
  minHashLength: 16,
  maxHashLength: 64,
});

/**
 * Whether cost parameters are integers within {@link ARGON2_LIMITS}, including RFC 9106's rule
 * that memory is at least 8 KiB per lane.
 *
 * @example
 * areArgon2ParametersValid({ memoryCost: 19456, timeCost: 2, parallelism: 1 }); // true
 * areArgon2ParametersValid({ memoryCost: 19456, timeCost: 0, parallelism: 1 }); // false
 */
export function areArgon2ParametersValid(parameters: Argon2Parameters): boolean {
  const { memoryCost, timeCost, parallelism } = parameters;
  return (
    isIntegerWithin(parallelism, ARGON2_LIMITS.minParallelism, ARGON2_LIMITS.maxParallelism) &&
    isIntegerWithin(timeCost, ARGON2_LIMITS.minTimeCost, ARGON2_LIMITS.maxTimeCost) &&
    isIntegerWithin(memoryCost, 8 * parallelism, ARGON2_LIMITS.maxMemoryCost)
  );
}

/**
 * Checks configured parameters and returns a frozen copy; throws a RangeError otherwise.
 *
 * @example
 * const params = checkArgon2Parameters({ memoryCost: 65536, timeCost: 3, parallelism: 1 });
 */
export function checkArgon2Parameters(parameters: Argon2Parameters): Argon2Parameters {
  if (!areArgon2ParametersValid(parameters)) {
    throw new RangeError(
      `Argon2 parameters out of range: need integers with 1 <= parallelism <= ${ARGON2_LIMITS.maxParallelism}, ` +
        `1 <= timeCost <= ${ARGON2_LIMITS.maxTimeCost}, 8 * parallelism <= memoryCost <= ${ARGON2_LIMITS.maxMemoryCost} (KiB)`,
    );
  }
  return Object.freeze({
    memoryCost: parameters.memoryCost,
    timeCost: parameters.timeCost,
    parallelism: parameters.parallelism,
  });
}

function isIntegerWithin(value: number, min: number, max: number): boolean {
  return Number.isSafeInteger(value) && value >= min && value <= max;
}

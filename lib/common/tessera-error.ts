const BRAND = Symbol.for('tessera:error');

/**
 * The base of every error the framework throws, at boot (a missing provider, a bad route path,
 * a short secret) or at request time (every HttpException). `code` is stable across releases and
 * meant for programs (`switch (error.code)`); `message` is for people and may change.
 *
 * @example
 * try { await createApp(AppModule); } catch (error) { if (isTesseraError(error) && error.code === 'DI_MISSING_PROVIDER') ... }
 */
export class TesseraError extends Error {
  readonly code: string;

  constructor(code: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }

  /** Marks instances across copies of the package, where `instanceof` would fail. */
  get [BRAND](): true {
    return true;
  }
}

/**
 * Whether a thrown value is a {@link TesseraError}, even one from another copy of the package.
 *
 * @example
 * if (isTesseraError(error)) log.warn(error.code);
 */
export function isTesseraError(value: unknown): value is TesseraError {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
}

/** Thrown (never an Error: no stack) when the fast path does not model something. */
export class Unsupported {
  constructor(readonly reason: string) {}
}
/** Two different schemas with one id: zod's run would throw, so the caller converts each root alone. */
export class IdConflict {}

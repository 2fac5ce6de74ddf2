// A small, independent model of the refresh-token state table (SPEC.md, "States and
// transitions / Refresh token"), written from the table and not from the service code.
// It predicts the outcome of each operation and the state every issued token must be in.
//
// State precedence (the service documents the same choice): revoked, then expired (expiresAt
// reached), then rotated, then active. Grace window: a replay strictly less than
// `graceSeconds` after the rotation is "within".

/** What the client sees. @example const o: Answer = 'unauthorized'; */
export type Answer = 'success' | 'unauthorized' | 'server-error';

/** Account states the operations can put a user in. @example const s: AccountStatus = 'disabled'; */
export type AccountStatus = 'ok' | 'disabled' | 'invalid-claims';

/** A token's state in the model; `unknown` for anything never issued. @example model.stateOf(raw) === 'rotated' */
export type ModelTokenState = 'unknown' | 'active' | 'rotated' | 'revoked' | 'expired';

/** One issued refresh token as the model tracks it (times in epoch ms). @example model.tokens.get(raw)?.rotatedAt */
export interface ModelToken {
  readonly raw: string;
  readonly subject: string;
  /** Model family number; maps one-to-one to the store's familyId strings. */
  readonly family: number;
  readonly expiresAt: number;
  rotatedAt: number | null;
  revokedAt: number | null;
  successors: number;
}

/** A seeded account in the model. @example model.user('u0').status = 'disabled'; */
export interface ModelUser {
  status: AccountStatus;
  /** Bumped whenever the claims change; the stub signer writes it into access tokens. */
  claimsVersion: number;
}

/** The prediction for one refresh of one token. @example if (model.predictRefresh(raw).reuse) model.revokeAfterReuse(raw); */
export interface RefreshPrediction {
  readonly outcome: Answer;
  /** The refresh replays a rotated token outside the grace window: its family (or subject) is revoked. */
  readonly reuse: boolean;
  /** The refresh is refused while the token is rotated within the grace window. */
  readonly withinGrace: boolean;
}

/**
 * The model: tokens, users and the clock, with the state table's transitions.
 *
 * @example
 * const model = new RotationModel(['u0'], 0, 600_000, 30, true);
 * model.startFamily(raw, 'u0');
 * model.predictRefresh(raw); // { outcome: 'success', reuse: false, withinGrace: false }
 */
export class RotationModel {
  readonly tokens = new Map<string, ModelToken>();
  /** Issue order, for picking "any token ever issued". */
  readonly issued: string[] = [];
  readonly users = new Map<string, ModelUser>();
  now: number;
  #families = 0;

  constructor(
    readonly subjects: readonly string[],
    startMs: number,
    readonly ttlMs: number,
    readonly graceSeconds: number,
    /** Whether the store has revokeFamily; without it reuse revokes every token of the subject. */
    readonly familyRevocation: boolean,
  ) {
    this.now = startMs;
    for (const subject of subjects) this.users.set(subject, { status: 'ok', claimsVersion: 0 });
  }

  /** An independent copy, to evaluate one possible order of racing operations. */
  clone(): RotationModel {
    const copy = new RotationModel(this.subjects, this.now, this.ttlMs, this.graceSeconds, this.familyRevocation);
    copy.#families = this.#families;
    for (const [raw, token] of this.tokens) copy.tokens.set(raw, { ...token });
    copy.issued.push(...this.issued);
    for (const [subject, user] of this.users) copy.users.set(subject, { ...user });
    return copy;
  }

  user(subject: string): ModelUser {
    const user = this.users.get(subject);
    if (user === undefined) throw new Error(`model: no user ${subject}`);
    return user;
  }

  stateOf(raw: string): ModelTokenState {
    const token = this.tokens.get(raw);
    if (token === undefined) return 'unknown';
    if (token.revokedAt !== null) return 'revoked';
    if (token.expiresAt <= this.now) return 'expired';
    if (token.rotatedAt !== null) return 'rotated';
    return 'active';
  }

  /** signIn with the right password, or issueTokens: what an account in this status gets. */
  predictIssue(subject: string | undefined, viaSignIn: boolean): Answer {
    const status = subject === undefined ? 'unknown' : this.user(subject).status;
    if (status === 'ok') return 'success';
    if (status === 'invalid-claims') return 'server-error';
    // Unknown or disabled: sign-in refuses with 401, issueTokens is a server fault.
    return viaSignIn ? 'unauthorized' : 'server-error';
  }

  predictRefresh(raw: string): RefreshPrediction {
    const state = this.stateOf(raw);
    if (state === 'unknown' || state === 'revoked' || state === 'expired') {
      return { outcome: 'unauthorized', reuse: false, withinGrace: false };
    }
    const token = this.tokens.get(raw)!;
    if (state === 'rotated') {
      const withinGrace = this.now < token.rotatedAt! + this.graceSeconds * 1000;
      return { outcome: 'unauthorized', reuse: !withinGrace, withinGrace };
    }
    const status = this.user(token.subject).status;
    if (status === 'disabled') return { outcome: 'unauthorized', reuse: false, withinGrace: false };
    if (status === 'invalid-claims') return { outcome: 'server-error', reuse: false, withinGrace: false };
    return { outcome: 'success', reuse: false, withinGrace: false };
  }

  /** A token issued by signIn or issueTokens: a new family. */
  startFamily(raw: string, subject: string): ModelToken {
    return this.#add(raw, subject, ++this.#families);
  }

  /** A successful refresh of `oldRaw` that returned `newRaw`. */
  rotate(oldRaw: string, newRaw: string): ModelToken {
    const old = this.tokens.get(oldRaw)!;
    old.rotatedAt = this.now;
    old.successors++;
    return this.#add(newRaw, old.subject, old.family);
  }

  /** Reuse detected on `raw`: revoke its family, or every token of its subject. */
  revokeAfterReuse(raw: string): void {
    const token = this.tokens.get(raw)!;
    for (const other of this.tokens.values()) {
      const inScope = this.familyRevocation ? other.family === token.family : other.subject === token.subject;
      if (inScope) this.#revoke(other);
    }
  }

  signOut(raw: string): void {
    const token = this.tokens.get(raw);
    if (token !== undefined) this.#revoke(token);
  }

  revokeAll(subject: string): void {
    for (const token of this.tokens.values()) if (token.subject === subject) this.#revoke(token);
  }

  /** Tokens in a scope that are still usable (not revoked, rotated or expired). */
  activeIn(scope: (token: ModelToken) => boolean): ModelToken[] {
    return [...this.tokens.values()].filter((t) => scope(t) && this.stateOf(t.raw) === 'active');
  }

  #add(raw: string, subject: string, family: number): ModelToken {
    if (this.tokens.has(raw)) throw new Error('model: the service issued the same refresh token twice');
    const token: ModelToken = { raw, subject, family, expiresAt: this.now + this.ttlMs, rotatedAt: null, revokedAt: null, successors: 0 };
    this.tokens.set(raw, token);
    this.issued.push(raw);
    return token;
  }

  #revoke(token: ModelToken): void {
    // The first revocation time stays (revoke of a revoked token is a no-op).
    if (token.revokedAt === null) token.revokedAt = this.now;
  }
}

import { ConflictException, type Clock } from '../../index.js';
import { invalidSecondFactor } from './invalid-second-factor.js';
import type { SecretBox } from './secret-box.js';
import type { SecondFactorStore } from './second-factor-store.js';
import { generateTotpSecret, matchTotp, totpSecretBase32, totpUri } from './totp.js';

/**
 * A TOTP enrolment to show once: the `otpauth://` URI (for a QR code) and the base32 secret (to type).
 *
 * @example
 * const { uri, secret } = await factors.enrolTotp('user_1', 'alice@acme.test');
 */
export interface TotpEnrolmentAnswer {
  readonly uri: string;
  readonly secret: string;
}

/** The associated data's purpose of a sealed TOTP secret. */
const TOTP_PURPOSE = 'totp';

/**
 * TOTP (RFC 6238) as a second factor: the secret sealed at rest, an enrolment confirmed by a
 * first code, and codes accepted once (the store's compare-and-set on the last step used). Every
 * refusal is the one `Invalid second factor`. Part of `SecondFactorService`.
 *
 * @example
 * const totp = new TotpFactor(store, box, clock, 'Acme');
 * await totp.verify('user_1', '287082');
 */
export class TotpFactor {
  constructor(
    readonly store: SecondFactorStore,
    readonly box: SecretBox,
    readonly clock: Clock,
    readonly issuer: string,
  ) {}

  /** A confirmed TOTP. */
  async enabled(subject: string): Promise<boolean> {
    return (await this.store.findTotp(subject))?.confirmedAt != null;
  }

  /**
   * A new 20-byte secret, sealed in the store (unconfirmed, replacing an earlier unconfirmed one).
   *
   * @throws ConflictException 409 when a confirmed TOTP exists.
   */
  async enrol(subject: string, accountName: string): Promise<TotpEnrolmentAnswer> {
    const secret = generateTotpSecret();
    const sealed = await this.box.seal(secret, TOTP_PURPOSE, subject);
    if (!(await this.store.saveTotpEnrolment(subject, sealed))) throw new TotpAlreadyEnabledException();
    return { uri: totpUri(secret, { issuer: this.issuer, account: accountName }), secret: totpSecretBase32(secret) };
  }

  /** Confirms the enrolment with a first code; the one 401 for a wrong code or no enrolment. */
  async confirm(subject: string, code: string): Promise<void> {
    const enrolment = await this.store.findTotp(subject);
    if (enrolment === undefined || enrolment.confirmedAt != null) throw invalidSecondFactor();
    const secret = await this.box.open(enrolment.sealedSecret, TOTP_PURPOSE, subject);
    const step = matchTotp(secret, code, this.clock.now());
    if (step === undefined) throw invalidSecondFactor();
    if (!(await this.store.confirmTotp(subject, step, new Date(this.clock.now())))) throw invalidSecondFactor();
  }

  /** Checks a code of a confirmed TOTP, spending its time step; the one 401 otherwise. */
  async verify(subject: string, code: unknown): Promise<void> {
    const enrolment = await this.store.findTotp(subject);
    if (enrolment === undefined || enrolment.confirmedAt == null || typeof code !== 'string') throw invalidSecondFactor();
    const secret = await this.box.open(enrolment.sealedSecret, TOTP_PURPOSE, subject);
    const step = matchTotp(secret, code, this.clock.now());
    // The compare-and-set refuses a step at or below the last one used: a code, or an older code
    // of the window, is never accepted twice, even by two instances at once.
    if (step === undefined || !(await this.store.useTotpStep(subject, step))) throw invalidSecondFactor();
  }

  remove(subject: string): Promise<void> {
    return this.store.removeTotp(subject);
  }
}

/** 409: a confirmed TOTP exists; remove it before enrolling another. */
class TotpAlreadyEnabledException extends ConflictException {
  constructor() {
    super('An authenticator app is already enabled: remove it before enrolling another', { code: 'TOTP_ALREADY_ENABLED' });
  }
}

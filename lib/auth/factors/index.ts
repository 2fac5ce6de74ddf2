// Second factors: TOTP, recovery codes, passkeys, the sign-in's second step and step-up.
export { SecondFactorService } from './second-factor-service.js';
export type { SecondFactorStatus } from './second-factor-service.js';
export { INVALID_SECOND_FACTOR_MESSAGE } from './invalid-second-factor.js';
export type { SecondFactorProof } from './second-factor-proof.js';
export type { SecondFactorSettings } from './second-factor-settings.js';
export type { TotpEnrolmentAnswer } from './totp-factor.js';
export type { SecondFactorOptions } from './second-factor-options.js';
export type { SecondFactorStore, TotpEnrolment, StoredPasskey, StoredChallenge, PendingSignIn, PasskeyChallengePurpose } from './second-factor-store.js';
export { InMemorySecondFactorStore } from './in-memory-second-factor-store.js';
export { SecretBox } from './secret-box.js';
export { generateTotpSecret, totpSecretBase32, totpUri, matchTotp, TOTP_PERIOD_SECONDS } from './totp.js';
export { generateRecoveryCodes, normalizeRecoveryCode, recoveryCodeDigest, RECOVERY_CODE_COUNT } from './recovery-codes.js';
export type { PasskeyOptions, PasskeyOptionsJson } from './passkey-ceremonies.js';
export { RequireStepUp, STEP_UP_RULE, STEP_UP_SECOND_FACTOR_TYPE, STEP_UP_SIGN_IN_TYPE, STEP_UP_ENROLMENT_TYPE } from './step-up.js';
export type { StepUpRule } from './step-up.js';

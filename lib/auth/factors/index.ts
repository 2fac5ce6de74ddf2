// Second factors: TOTP, recovery codes, passkeys, the sign-in's second step and step-up.
export { SecondFactorService, INVALID_SECOND_FACTOR_MESSAGE } from './second-factor-service.js';
export type { SecondFactorProof, SecondFactorStatus, TotpEnrolmentAnswer, SecondFactorSettings } from './second-factor-service.js';
export type { SecondFactorOptions } from './second-factor-options.js';
export type { SecondFactorStore, TotpEnrolment, StoredPasskey, StoredChallenge, PendingSignIn, PasskeyChallengePurpose } from './second-factor-store.js';
export { InMemorySecondFactorStore } from './in-memory-second-factor-store.js';
export { SecretBox } from './secret-box.js';
export { generateTotpSecret, totpSecretBase32, totpUri, matchTotp, TOTP_PERIOD_SECONDS } from './totp.js';
export { generateRecoveryCodes, normalizeRecoveryCode, recoveryCodeDigest, RECOVERY_CODE_COUNT } from './recovery-codes.js';
export type { PasskeyOptions, PasskeyOptionsJson } from './passkey-ceremonies.js';
export { RequireStepUp, STEP_UP_RULE, STEP_UP_SECOND_FACTOR_TYPE, STEP_UP_SIGN_IN_TYPE, STEP_UP_ENROLMENT_TYPE } from './step-up.js';
export type { StepUpRule } from './step-up.js';

// The account lifecycle on the PostgreSQL stores (PGlite): sign-up through AccountService on
// PostgresAccountStore, sign-in through TokenIssuingService reading PostgresCredentialStore (the
// same table) behind verifiedCredentialStore, as the auth module wires them; a reset revokes the
// refresh tokens in PostgresRefreshTokenStore.
import { describe, expect, it } from 'vitest';
import { AccountService } from '../../lib/auth/accounts/index.js';
import { capturingMailer, countingHasher, tokenOf } from '../../lib/auth/accounts/account-service.test-helper.js';
import { verifiedCredentialStore } from '../../lib/auth/accounts/verified-credential-store.js';
import { TokenIssuingService } from '../../lib/auth/sessions/issuing/index.js';
import { PostgresAccountStore, PostgresCredentialStore, PostgresRefreshTokenStore } from '../../lib/auth/postgres/index.js';
import { systemClock } from '../../lib/index.js';
import { useMigratedPGlite } from '../postgres/support/pglite.js';
import { ContractClaims, fakeAccessTokens, uniqueId } from './contract-fixtures.js';

const lite = useMigratedPGlite();
const PASSWORD = 'correct horse battery';

async function lifecycle() {
  const accountStore = new PostgresAccountStore<ContractClaims>(lite.db);
  const hasher = await countingHasher();
  const mailer = capturingMailer();
  const auth = new TokenIssuingService<ContractClaims>({
    claimsSchema: ContractClaims,
    credentialStore: verifiedCredentialStore(new PostgresCredentialStore<ContractClaims>(lite.db), accountStore),
    refreshTokenStore: new PostgresRefreshTokenStore(lite.db),
    accessTokens: fakeAccessTokens(systemClock),
    passwordHasher: hasher,
  });
  const accounts = new AccountService<ContractClaims>({
    store: accountStore,
    sessions: auth,
    passwordHasher: hasher,
    mailer,
    links: 'https://app.example.test',
    newAccountClaims: ({ subject }) => ({ sub: subject, roles: ['member'] }),
  });
  const email = `${uniqueId('person')}@example.test`;
  const mailTo = async (to: string, index: number) => {
    await accounts.settled();
    return mailer.sent.filter((m) => m.to === to)[index];
  };
  const mail = (index: number) => mailTo(email, index);
  return { accounts, auth, accountStore, email, mail, mailTo };
}

describe('the account lifecycle on PostgreSQL (PGlite)', () => {
  it('an account from sign-up is refused with 401 until verified, then signs in', async () => {
    const { accounts, auth, email, mail } = await lifecycle();
    await accounts.signUp(email, PASSWORD);
    await expect(auth.signIn(email, PASSWORD)).rejects.toMatchObject({ status: 401 });
    await accounts.verifyEmail(tokenOf(await mail(0)));
    await expect(auth.signIn(email.toUpperCase(), PASSWORD)).resolves.toHaveProperty('refreshToken');
  });

  it('a reset revokes every refresh token of the account and the new password signs in', async () => {
    const { accounts, auth, email, mail } = await lifecycle();
    await accounts.signUp(email, PASSWORD);
    await accounts.verifyEmail(tokenOf(await mail(0)));
    const session = await auth.signIn(email, PASSWORD);
    await accounts.requestPasswordReset(email);
    await accounts.resetPassword(tokenOf(await mail(1)), 'a brand new passphrase');
    await expect(auth.refresh(session.refreshToken), 'the session from before the reset').rejects.toMatchObject({ status: 401 });
    await expect(auth.signIn(email, PASSWORD), 'the old password').rejects.toMatchObject({ status: 401 });
    await expect(auth.signIn(email, 'a brand new passphrase')).resolves.toHaveProperty('refreshToken');
  });

  it('an e-mail change moves sign-in to the new address', async () => {
    const { accounts, auth, accountStore, email, mail, mailTo } = await lifecycle();
    await accounts.signUp(email, PASSWORD);
    await accounts.verifyEmail(tokenOf(await mail(0)));
    const subject = (await accountStore.findByEmail(email))?.subject ?? '';
    const next = `new-${email}`;
    await accounts.requestEmailChange({ subject, currentPassword: PASSWORD, newEmail: next });
    await accounts.confirmEmailChange(tokenOf(await mailTo(next, 0)));
    await expect(auth.signIn(next, PASSWORD), 'the new address').resolves.toHaveProperty('refreshToken');
    await expect(auth.signIn(email, PASSWORD), 'the old address').rejects.toMatchObject({ status: 401 });
    expect((await mail(1))?.text, 'the old address is told').toContain(next);
  });
});

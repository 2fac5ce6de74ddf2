import { describe, expect, it } from 'vitest';
import { defaultAccountMailTemplates } from './account-mail-templates.js';

describe('defaultAccountMailTemplates', () => {
  it('escape addresses and links in the HTML body and keep them readable in the text body', () => {
    const mail = defaultAccountMailTemplates.confirmEmailChange({ email: 'a@x.test', appName: 'Acme', oldEmail: '"><script>x</script>@x.test', link: 'https://x.test/c?token=a&b' });
    expect(mail.html, 'no markup from the address').not.toContain('<script>');
    expect(mail.html).toContain('&quot;&gt;&lt;script&gt;');
    expect(mail.html, 'the link attribute is escaped').toContain('href="https://x.test/c?token=a&amp;b"');
    expect(mail.text).toContain('https://x.test/c?token=a&b');
  });

  it('put the link of every linked mail in both bodies', () => {
    const link = 'https://x.test/l?token=T0k3n';
    const base = { email: 'a@x.test', appName: 'Acme' };
    for (const mail of [
      defaultAccountMailTemplates.verifyEmail({ ...base, link }),
      defaultAccountMailTemplates.resetPassword({ ...base, link }),
      defaultAccountMailTemplates.signUpAttempt({ ...base, resetLink: link }),
      defaultAccountMailTemplates.confirmEmailChange({ ...base, link, oldEmail: 'old@x.test' }),
    ]) {
      expect(mail.text, mail.subject).toContain(link);
      expect(mail.html, mail.subject).toContain(`href="${link}"`);
    }
  });
});

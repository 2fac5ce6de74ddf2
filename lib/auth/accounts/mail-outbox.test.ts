import { describe, expect, it } from 'vitest';
import { jsonLogger } from '../../index.js';
import { MailOutbox } from './mail-outbox.js';

describe('MailOutbox', () => {
  it('drops and logs a job over its bound while the others wait, and takes jobs again once they drain', async () => {
    const lines: string[] = [];
    const outbox = new MailOutbox(jsonLogger({ write: (line) => lines.push(line) }), 2);
    const releases: (() => void)[] = [];
    const ran: string[] = [];
    const job = (name: string) => () => new Promise<void>((resolve) => releases.push(() => (ran.push(name), resolve())));
    outbox.run('resetPassword', job('a'));
    outbox.run('resetPassword', job('b'));
    outbox.run('resetPassword', job('c'));
    expect(lines.filter((l) => l.includes('was dropped')).length, 'the third job is dropped').toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 5));
    for (const release of releases.splice(0)) release();
    await outbox.settled();
    outbox.run('resetPassword', job('d'));
    await new Promise((resolve) => setTimeout(resolve, 5));
    for (const release of releases.splice(0)) release();
    await outbox.settled();
    expect(ran).toEqual(['a', 'b', 'd']);
  });

  it('logs a failed job by kind and message, and settles', async () => {
    const lines: string[] = [];
    const outbox = new MailOutbox(jsonLogger({ write: (line) => lines.push(line) }));
    outbox.run('verifyEmail', async () => {
      throw new Error('connection refused');
    });
    await outbox.settled();
    expect(lines.join('\n')).toMatch(/the verifyEmail mail failed: connection refused/);
  });
});

// @Job: a job written as a class, its constructor's parameters injected, its handle the handler,
// enqueued by the class with the payload its schema checks.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp, defineModule } from '../lib/index.js';
import { JOBS, JobPayloadError, JobsModule, memoryJobEngine, type JobContext } from '../lib/jobs/index.js';
import { Injectable, Job } from './index.js';
import { createTestLogger } from '../test/support/test-logger.js';

@Injectable()
class Outbox {
  readonly sent: string[] = [];
}

const Welcome = z.object({ to: z.email() });

@Job({ name: 'facade-welcome', payload: Welcome, retries: 0 })
class WelcomeMail {
  constructor(private readonly outbox: Outbox) {}
  handle(payload: z.input<typeof Welcome>, context: JobContext): void {
    this.outbox.sent.push(`${payload.to}#${context.attempt}`);
  }
}

describe('@Job', () => {
  it('runs the class’s handle with its constructor’s providers, enqueued by the class', async () => {
    const { logger } = createTestLogger();
    const app = await createApp(defineModule({ name: 'App', imports: [JobsModule.forRoot({ engine: memoryJobEngine() })], providers: [Outbox, WelcomeMail] }), { logger });
    await app.get(JOBS).enqueue(WelcomeMail, { to: 'ada@example.com' });
    const outbox = app.get(Outbox);
    for (let i = 0; i < 100 && outbox.sent.length === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(outbox.sent, 'the handler ran once with the injected outbox').toEqual(['ada@example.com#1']);
    await expect(app.get(JOBS).enqueue(WelcomeMail, { to: 'nope' }), 'the schema refuses a bad payload').rejects.toBeInstanceOf(JobPayloadError);
    await app.close();
  });
});

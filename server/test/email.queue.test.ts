import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from './support/accounts';
import { eventIn } from './support/events';
import { createWorkspace, withDb } from './support/fixtures';
import { useTestServer } from './support/hooks';
import type { TestServer } from './support/server';
import { startSmtp, type TestSmtp } from './support/smtp';
import { eventually } from './support/wait';

/**
 * Every email leaves through the durable job queue: a mail server that refuses answers nothing to the
 * request that caused the email, and the email arrives once the mail server takes it again.
 */
let smtp: TestSmtp;
let t: TestServer;

beforeAll(async () => {
  smtp = await startSmtp();
});
afterAll(() => smtp?.close());
// Registered after the mail server's hooks: started once it listens (the env is read then), closed before it.
useTestServer(
  () => ({ SMTP_URL: smtp.url }),
  (started) => {
    t = started;
  },
);

/** The queued (not yet sent) email jobs addressed to `address`. */
const queuedEmailsTo = (address: string) =>
  withDb(
    t.databaseUrl,
    async (db) =>
      (
        await db.query<{ attempts: number; last_error: string | null }>(
          `select j.attempts, j.last_error from graphile_worker._private_jobs j
           join graphile_worker._private_tasks k on k.id = j.task_id
          where k.identifier = 'email_send' and j.payload->>'to' = $1`,
          [address],
        )
      ).rows,
  );

const seen = (event: 'refused' | 'received', address: string) =>
  new Promise<string>((resolve) => {
    const on = (to: string, raw: string) => {
      if (to !== address) return;
      smtp.events.off(event, on);
      resolve(raw);
    };
    smtp.events.on(event, on);
  });

describe('email through the durable queue', () => {
  it('answers a registration 200 while the mail server refuses, and delivers the confirmation once it recovers', async () => {
    const ws = await createWorkspace(t.databaseUrl);
    const event = await eventIn(t.client({ apiKey: ws.apiKey }), 'scheduled', [{ modality: 'broadcast' }], {
      visibility: 'public',
    });
    const email = uniqueEmail('queued');
    smtp.refusing = true;
    const refused = seen('refused', email);
    const answer = await t.client().public.register(event.id, { name: 'Queued', email });
    expect(answer).toMatchObject({ registered: true, alreadyRegistered: false });
    await refused;

    // The failed attempt leaves the job queued for a retry, with the error recorded (the worker records
    // it just after the mail server's refusal, so the test waits for the row).
    const [job] = await eventually(
      () => queuedEmailsTo(email),
      ([j]) => j?.last_error != null,
    );
    expect(job!.attempts).toBeGreaterThanOrEqual(1);
    expect(job!.last_error).toMatch(/451|try again/i);

    const received = seen('received', email);
    smtp.refusing = false;
    const raw = await received;
    expect(raw).toMatch(/You're registered/);
    expect(raw).toMatch(/enter\?token=/);
  });

  it('queues nothing for a change that is refused: no email for a registration that fails', async () => {
    const ws = await createWorkspace(t.databaseUrl);
    const event = await eventIn(t.client({ apiKey: ws.apiKey }), 'ended', [{ modality: 'broadcast' }], {
      visibility: 'public',
    });
    const email = uniqueEmail('refused');
    await expect(t.client().public.register(event.id, { name: 'Late', email })).rejects.toMatchObject({
      status: 409,
    });
    expect(await queuedEmailsTo(email)).toEqual([]);
  });
});

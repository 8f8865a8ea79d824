import type { GathercastClient } from '@gathercast/sdk';
import { vi } from 'vitest';
import { mailboxOf } from './accounts';
import { withDb } from './fixtures';
import type { TestServer } from './server';

/** The emails the dev mailbox holds for `to`, newest first. */
export const mailbox = (t: TestServer, to: string) => mailboxOf(t, to);

/**
 * Waits until the dev mailbox holds an email to `to` whose subject matches (emails queued by a change
 * go out from the scheduled-jobs loop); answers the newest such email.
 */
export const waitForEmail = (t: TestServer, to: string, subject: RegExp, timeout = 15_000) =>
  vi.waitFor(
    async () => {
      const found = (await mailbox(t, to)).find((e) => subject.test(e.subject));
      if (!found) throw new Error(`no email to ${to} matching ${subject}`);
      return found;
    },
    { timeout, interval: 50 },
  );

/** The token of a join link. */
export const tokenOf = (joinUrl: string) => new URL(joinUrl).searchParams.get('token')!;

/** The registration webhooks recorded for an event, oldest first. */
export const registrationFacts = (databaseUrl: string, eventId: string) =>
  withDb(databaseUrl, async (db) => {
    const res = await db.query(
      `select type, payload from domain_event where event_id = $1 and type like 'registration.%' order by occurred_at, id`,
      [eventId],
    );
    return res.rows as {
      type: string;
      payload: { registrationId: string; status: string; change?: string };
    }[];
  });

let n = 0;
/** A new person: unique name and email. */
export const person = (prefix = 'reg') => ({
  name: `Person ${++n}`,
  email: `${prefix}${n}-${Date.now()}@example.test`,
});

/** A published public event with a broadcast phase (and the given settings). */
export async function openEvent(gc: GathercastClient, extra: Record<string, unknown> = {}) {
  const event = await gc.events.create({
    type: 'webinar',
    title: 'Launch webinar',
    visibility: 'public',
    phases: [{ modality: 'broadcast' }],
    ...extra,
  });
  await gc.events.publish(event.id);
  return event;
}

import { withTransaction } from '../db/pool';
import { type SqlTx, sql } from '../db/sql';
import type { AppContext } from '../lib/context';
import type { RegistrantEmailKind } from './changes';
import { type EmailFacts, queueRegistrantEmail, registrantEmail } from './emails';
import { readFacts } from './facts';
import { entryLink, mintEntryToken } from './join-link';

type Ctx = Pick<AppContext, 'pool' | 'emails' | 'config'>;

/** At most this many emails per run; the next tick goes on. */
const perRun = 200;

const seated = (f: EmailFacts) => f.status === 'registered' || f.status === 'attended';

/**
 * Whether a queued email still says something true when it is sent: nothing goes to a registration
 * canceled meanwhile (but its own cancellation), nor about an event canceled or ended meanwhile (but
 * the event's cancellation), and a reminder only before the start.
 */
function stillDue(kind: RegistrantEmailKind, f: EmailFacts): boolean {
  switch (kind) {
    case 'canceled':
      return true;
    case 'waitlisted':
      return f.status === 'waitlisted' && f.eventStatus !== 'ended';
    case 'reminder':
      return seated(f) && f.eventStatus === 'scheduled' && !!f.scheduledAt && f.scheduledAt > new Date();
    default:
      return seated(f) && f.eventStatus !== 'ended';
  }
}

/** Kinds that carry a fresh join link. */
const withJoinLink = new Set<RegistrantEmailKind>(['admitted', 'reminder', 'updated']);

/**
 * Renders one queued registrant email in its own transaction and hands it to the durable email queue:
 * the row stays locked (`for update skip locked`, so no other process takes it) and is marked sent in
 * the same commit as the email job and the entry token its link carries, so each goes out once.
 */
async function sendOne(ctx: Ctx, tx: SqlTx): Promise<boolean> {
  const [row] = await sql<{ id: string; registration_id: string; kind: RegistrantEmailKind }>(
    tx,
    `select id, registration_id, kind from registrant_email where sent_at is null
      order by created_at limit 1 for update skip locked`,
  );
  if (!row) return false;
  const base = ctx.config.publicBaseUrl;
  const facts = await readFacts(tx, base, row.registration_id);
  if (facts && stillDue(row.kind, facts)) {
    const joinUrl = withJoinLink.has(row.kind)
      ? entryLink(base, facts.eventId, await mintEntryToken(tx, facts.registrationId))
      : null;
    await queueRegistrantEmail(
      ctx,
      tx,
      registrantEmail(row.kind, { ...facts, joinUrl }, ctx.config.emailFrom),
    );
  }
  await sql(tx, 'update registrant_email set sent_at = now() where id = ?', [row.id]);
  return true;
}

/** Sends what is queued, one email per transaction, up to `perRun`. */
export async function sendQueuedEmails(ctx: Ctx): Promise<void> {
  for (let i = 0; i < perRun; i++) {
    if (!(await withTransaction(ctx.pool, (tx) => sendOne(ctx, tx)))) return;
  }
}

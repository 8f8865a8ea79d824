import { randomUUID } from 'node:crypto';
import type { RegistrationAnswers, RegistrationStatus } from '@gathercast/contract';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from '../db/sql';
import type { RequestAuth } from '../lib/actor';
import type { AppContext } from '../lib/context';
import { notFound, problem } from '../lib/problem';
import { validateAnswers } from '../registrations/answers';
import { recordCreated } from '../registrations/changes';
import { queueRegistrantEmail, registrantEmail } from '../registrations/emails';
import { readFacts } from '../registrations/facts';
import { calendarLink, entryLink, mintEntryToken } from '../registrations/join-link';
import { statusForNew, takeSeat } from '../registrations/seats';
import { readSettings } from '../registrations/settings';
import { findPublicEvent } from './access';

export interface RegistrationResult {
  registered: boolean;
  alreadyRegistered: boolean;
  registrationId: string;
  status: RegistrationStatus;
  joinUrl: string | null;
  calendarUrl: string;
}

export { entryLink };

/**
 * Self-registration. Runs under the event row lock, so seats never pass the capacity and the waiting
 * list keeps its order however many people register at once. A new registration (or one canceled
 * before) is decided again: pending approval, a seat, the waiting list, or 409 event_full. Registering
 * again while registered answers alreadyRegistered, updates the name (and answers, when given), and
 * emails a fresh join link that the answer does not carry.
 */
export async function register(
  ctx: Pick<AppContext, 'emails' | 'config' | 'bus'>,
  em: EntityManager,
  auth: RequestAuth,
  eventId: string,
  input: { name: string; email: string; answers?: RegistrationAnswers },
): Promise<RegistrationResult> {
  const email = input.email.toLowerCase();
  /** The confirmation, with a fresh join link, queued in the registration's transaction. */
  const confirm = async (
    tx: EntityManager,
    id: string,
    status: RegistrationStatus,
    alreadyRegistered: boolean,
  ) => {
    const joinUrl = entryLink(ctx.config.publicBaseUrl, eventId, await mintEntryToken(tx, id));
    const facts = await readFacts(tx, ctx.config.publicBaseUrl, id);
    await queueRegistrantEmail(
      ctx,
      tx,
      registrantEmail('confirmation', { ...facts!, joinUrl }, ctx.config.emailFrom),
    );
    return { id, status, joinUrl, alreadyRegistered };
  };
  const { id, status, joinUrl, alreadyRegistered } = await em.transactional(async (tx) => {
    const found = await findPublicEvent(tx, auth, eventId, true);
    if (!found) throw notFound('Event');
    const { event, privateViewer } = found;
    if (privateViewer) throw problem('forbidden', 'Private events cannot be self-registered for');
    if (event.status === 'ended') throw problem('invalid_state', 'This event has ended');
    const settings = await readSettings(tx, eventId);
    const [existing] = await sql<{ id: string; status: RegistrationStatus }>(
      tx,
      'select id, status from registration where event_id = ? and email = ?',
      [eventId, email],
    );
    if (existing && existing.status !== 'canceled') {
      const answers = input.answers === undefined ? null : validateAnswers(settings.questions, input.answers);
      await sql(
        tx,
        'update registration set name = ?, answers = coalesce(?::jsonb, answers), updated_at = now() where id = ?',
        [input.name, answers && JSON.stringify(answers), existing.id],
      );
      return confirm(tx, existing.id, existing.status, true);
    }
    const answers = validateAnswers(settings.questions, input.answers);
    const status = statusForNew(event, settings);
    const [row] = await sql<{ id: string }>(
      tx,
      // clock_timestamp(): taken under the event lock, so the order of registrations is the order
      // they were decided in (now() is the transaction's start, which concurrent ones do not share).
      `insert into registration (id, event_id, workspace_id, email, name, status, answers, created_at, waitlisted_at)
       values (?, ?, ?, ?, ?, ?, ?::jsonb, clock_timestamp(), case when ? = 'waitlisted' then clock_timestamp() end)
       on conflict (event_id, email) do update set name = excluded.name, status = excluded.status,
         answers = excluded.answers, waitlisted_at = excluded.waitlisted_at, canceled_at = null,
         approved_at = null, created_at = excluded.created_at, updated_at = now()
       returning id`,
      [randomUUID(), eventId, event.workspace_id, email, input.name, status, JSON.stringify(answers), status],
    );
    if (status === 'registered') await takeSeat(tx, eventId);
    await recordCreated(ctx, tx, { id: row!.id, workspaceId: event.workspace_id, eventId, status });
    return confirm(tx, row!.id, status, false);
  });
  return {
    registered: status === 'registered',
    alreadyRegistered,
    registrationId: id,
    status,
    joinUrl: alreadyRegistered ? null : joinUrl,
    calendarUrl: calendarLink(ctx.config.publicBaseUrl, id),
  };
}

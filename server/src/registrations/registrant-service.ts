import type { RegistrationStatus } from '@gathercast/contract';
import type { EntityManager } from '@mikro-orm/postgresql';
import { sql } from '../db/sql';
import type { AppContext } from '../lib/context';
import { notFound, problem } from '../lib/problem';
import { hashSecret, secretPrefixes } from '../lib/secrets';
import { calendarOf } from './emails';
import { readFacts } from './facts';
import { type RegistrationRow, registrationColumns } from './rows';
import { cancelLocked } from './service';

const invalid = () => problem('invalid_token', 'The token is not one of this event’s join links');

/** The registrant cancels with the token of any join link they were sent (used or not). */
export async function cancelByToken(
  ctx: Pick<AppContext, 'bus'>,
  em: EntityManager,
  eventId: string,
  token: string,
): Promise<{ registrationId: string; status: RegistrationStatus }> {
  if (!token.startsWith(secretPrefixes.entrySession)) throw invalid();
  return em.transactional(async (tx) => {
    const [owner] = await sql<{ registration_id: string }>(
      tx,
      `select t.registration_id from registration_entry_token t join registration r on r.id = t.registration_id
        where t.token_hash = ? and r.event_id = ?`,
      [hashSecret(token), eventId],
    );
    if (!owner) throw invalid();
    const [event] = await sql<{ status: string }>(tx, 'select status from event where id = ? for update', [
      eventId,
    ]);
    if (event!.status === 'ended') throw problem('invalid_state', 'This event has ended');
    const [reg] = await sql<RegistrationRow>(
      tx,
      `select ${registrationColumns} from registration r where r.id = ?`,
      [owner.registration_id],
    );
    await cancelLocked(ctx, tx, reg!);
    return { registrationId: reg!.id, status: 'canceled' as const };
  });
}

/** The public .ics of a registration: PUBLISH while it stands, CANCEL once it or its event is canceled. */
export async function registrationCalendar(
  ctx: Pick<AppContext, 'config'>,
  em: EntityManager,
  registrationId: string,
): Promise<string> {
  const f = await readFacts(em, ctx.config.publicBaseUrl, registrationId);
  if (!f) throw notFound('Registration');
  if (!f.scheduledAt) throw problem('invalid_state', 'The event has no start time yet');
  return calendarOf(f, ctx.config.emailFrom, 'PUBLISH', false);
}

import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppContext } from '../lib/context';
import { sql } from '../db/sql';
import type { RequestAuth } from '../http/auth';
import { notFound, problem } from '../lib/problem';
import { hashSecret, newSecret, secretPrefixes } from '../lib/secrets';
import { findPublicEvent } from './access';

export interface RegistrationResult {
  registered: true;
  alreadyRegistered: boolean;
}

/** Where the confirmation email sends a registrant (the token is single use). */
export const entryLink = (baseUrl: string, eventId: string, token: string) =>
  `${baseUrl}/events/${eventId}/enter?token=${encodeURIComponent(token)}`;

/**
 * Self-registration. Runs under the event row lock, so the admitted count can never pass the
 * capacity however many people register at once. Registering again answers alreadyRegistered and
 * sends the confirmation (with a fresh entry token) again.
 */
export async function register(
  ctx: Pick<AppContext, 'mailer' | 'config'>,
  em: EntityManager,
  auth: RequestAuth,
  eventId: string,
  input: { name: string; email: string },
): Promise<RegistrationResult> {
  const email = input.email.toLowerCase();
  const { token, title, alreadyRegistered } = await em.transactional(async (tx) => {
    const found = await findPublicEvent(tx, auth, eventId, true);
    if (!found) throw notFound('Event');
    const { event, privateViewer } = found;
    if (privateViewer) throw problem('forbidden', 'Private events cannot be self-registered for');
    if (event.status === 'ended') throw problem('invalid_state', 'This event has ended');
    const [reg] = await sql<{ id: string; inserted: boolean }>(
      tx,
      `insert into registration (id, event_id, email, name) values (?, ?, ?, ?)
       on conflict (event_id, email) do update set name = excluded.name, updated_at = now()
       returning id, (xmax = 0) as inserted`,
      [randomUUID(), eventId, email, input.name],
    );
    if (reg!.inserted) {
      if (event.capacity !== null && event.registered_count >= event.capacity) {
        throw problem('event_full', `This event is full (capacity ${event.capacity})`);
      }
      await sql(tx, 'update event set registered_count = registered_count + 1 where id = ?', [eventId]);
    }
    const token = newSecret(secretPrefixes.entrySession);
    await sql(tx, 'insert into registration_entry_token (token_hash, registration_id) values (?, ?)', [
      hashSecret(token),
      reg!.id,
    ]);
    return { token, title: event.title, alreadyRegistered: !reg!.inserted };
  });

  const link = entryLink(ctx.config.publicBaseUrl, eventId, token);
  await ctx.mailer.send({
    to: email,
    subject: `You're registered: ${title}`,
    text: `Hi ${input.name},\n\nYou're registered for ${title}. Join with this link (it works once, until the event ends):\n${link}\n`,
    html: `<p>Hi ${escapeHtml(input.name)},</p><p>You're registered for <strong>${escapeHtml(title)}</strong>.</p><p><a href="${escapeHtml(link)}">Join the event</a> (the link works once, until the event ends).</p>`,
    links: [link],
  });
  return { registered: true, alreadyRegistered };
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

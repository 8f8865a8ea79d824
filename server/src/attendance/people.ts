import type { Attendee } from '@gathercast/contract';
import { type SqlTx, sql } from '../db/sql';

export interface Person {
  kind: Attendee['kind'];
  registrationId: string | null;
  userId: string | null;
  name: string | null;
  email: string | null;
}

const idsOf = (participantIds: string[], prefix: string) =>
  participantIds.filter((p) => p.startsWith(prefix)).map((p) => p.slice(prefix.length));

const uuidArray = (ids: string[]) => `{${ids.filter((id) => /^[0-9a-f-]{36}$/i.test(id)).join(',')}}`;

/**
 * Who each participant id of the live plane is: `entry:` a registrant, `user:` a workspace user,
 * `guest:` a guest session, `anon:` an anonymous viewer (no name, counted all the same).
 */
export async function peopleOf(db: SqlTx, participantIds: string[]): Promise<Map<string, Person>> {
  const [registrants, users, guests] = await Promise.all([
    sql<{ id: string; name: string; email: string }>(
      db,
      'select id, name, email from registration where id = any(?::uuid[])',
      [uuidArray(idsOf(participantIds, 'entry:'))],
    ),
    sql<{ id: string; name: string | null; email: string | null }>(
      db,
      'select id, name, email from app_user where id = any(?::uuid[])',
      [uuidArray(idsOf(participantIds, 'user:'))],
    ),
    sql<{ id: string; name: string | null; email: string | null }>(
      db,
      `select id, data->>'name' as name, data->>'email' as email from session where id = any(?::uuid[])`,
      [uuidArray(idsOf(participantIds, 'guest:'))],
    ),
  ]);
  const out = new Map<string, Person>();
  for (const p of participantIds) {
    const [prefix, id] = [p.slice(0, p.indexOf(':')), p.slice(p.indexOf(':') + 1)];
    const none = { registrationId: null, userId: null, name: null, email: null };
    if (prefix === 'entry') {
      const r = registrants.find((x) => x.id === id);
      out.set(p, {
        ...none,
        kind: 'registrant',
        registrationId: r ? id : null,
        name: r?.name ?? null,
        email: r?.email ?? null,
      });
    } else if (prefix === 'user') {
      const u = users.find((x) => x.id === id);
      out.set(p, {
        ...none,
        kind: 'user',
        userId: u ? id : null,
        name: u?.name ?? null,
        email: u?.email ?? null,
      });
    } else if (prefix === 'guest') {
      const g = guests.find((x) => x.id === id);
      out.set(p, { ...none, kind: 'guest', name: g?.name ?? null, email: g?.email ?? null });
    } else out.set(p, { ...none, kind: 'anonymous' });
  }
  return out;
}

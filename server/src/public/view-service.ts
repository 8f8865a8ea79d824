import type { publicEventSchema } from '@gathercast/contract';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import { activeBroadcastOf } from '../broadcasts/active-broadcast';
import { iso, sql } from '../db/sql';
import { phasesOf } from '../events/locks';
import type { RequestAuth } from '../lib/actor';
import { notFound } from '../lib/problem';
import { readSettings } from '../registrations/settings';
import { findPublicEvent } from './access';

export type PublicEvent = z.infer<typeof publicEventSchema>;

/** The on-stage cast of an event for public surfaces: names of hosts and speakers, hosts first. */
export const publicCastOf = (em: EntityManager, eventId: string) =>
  sql<{ name: string; role: 'host' | 'speaker' }>(
    em,
    `select u.name, m.role from event_membership m join app_user u on u.id = m.user_id
      where m.event_id = ? and m.role in ('host', 'speaker') and u.name is not null
      order by case m.role when 'host' then 0 else 1 end, m.created_at, m.id`,
    [eventId],
  );

/**
 * The public event view: agenda (without configs), the on-stage cast (names of hosts and speakers,
 * nothing else) and the running (live or paused) broadcast of the active broadcast phase, if any.
 */
export async function publicEventView(
  em: EntityManager,
  auth: RequestAuth,
  eventId: string,
  hlsBaseUrl: string,
): Promise<PublicEvent> {
  const found = await findPublicEvent(em, auth, eventId);
  if (!found) throw notFound('Event');
  const { event } = found;
  const [phases, cast, activeBroadcast, form] = await Promise.all([
    phasesOf(em, eventId),
    publicCastOf(em, eventId),
    activeBroadcastOf(em, hlsBaseUrl, eventId),
    readSettings(em, eventId),
  ]);
  const description = event.metadata?.description;
  return {
    id: event.id,
    type: event.type,
    title: event.title,
    status: event.status,
    visibility: event.visibility,
    scheduledAt: iso(event.scheduled_at),
    scheduledEndAt: iso(event.scheduled_end_at),
    timezone: event.timezone,
    canceledAt: iso(event.canceled_at),
    registrationForm: {
      questions: form.questions,
      requiresApproval: form.requires_approval,
      waitlist: form.waitlist,
    },
    allowAnonymousVoting: event.allow_anonymous_voting,
    allowAnonymousQuestions: event.allow_anonymous_questions,
    description: typeof description === 'string' ? description : null,
    phases: phases.map((p) => ({
      id: p.id,
      position: p.position,
      modality: p.modality,
      status: p.status,
      featureSet: p.feature_set,
      startedAt: iso(p.started_at),
      endsAt: iso(p.ends_at),
    })),
    cast: cast.map((c) => ({ name: c.name, role: c.role })),
    activeBroadcast,
  };
}

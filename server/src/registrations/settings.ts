import type {
  RegistrationQuestion,
  RegistrationSettings,
  updateRegistrationSettingsBody,
} from '@gathercast/contract';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { z } from 'zod';
import { iso, type SqlTx, sql } from '../db/sql';
import { eventOfWorkspace } from '../events/locks';
import type { Actor } from '../lib/actor';

/** Without a settings row: no questions, no approval, no waitlist, reminders 24 h and 1 h before. */
export const defaultReminderMinutes = [1440, 60];

export interface SettingsRow {
  questions: RegistrationQuestion[];
  requires_approval: boolean;
  waitlist: boolean;
  reminder_minutes: number[];
  updated_at: Date | null;
}

const defaults: SettingsRow = {
  questions: [],
  requires_approval: false,
  waitlist: false,
  reminder_minutes: defaultReminderMinutes,
  updated_at: null,
};

export async function readSettings(db: SqlTx, eventId: string): Promise<SettingsRow> {
  const [row] = await sql<SettingsRow>(
    db,
    'select questions, requires_approval, waitlist, reminder_minutes, updated_at from registration_settings where event_id = ?',
    [eventId],
  );
  return row ?? defaults;
}

export const toSettings = (eventId: string, r: SettingsRow): RegistrationSettings => ({
  eventId,
  questions: r.questions,
  requiresApproval: r.requires_approval,
  waitlist: r.waitlist,
  reminderMinutesBefore: r.reminder_minutes,
  updatedAt: iso(r.updated_at),
});

export async function getSettings(
  em: EntityManager,
  actor: Actor,
  eventId: string,
): Promise<RegistrationSettings> {
  await eventOfWorkspace(em, actor, eventId);
  return toSettings(eventId, await readSettings(em, eventId));
}

/** Changes the fields given; the others keep their value (or default). */
export async function updateSettings(
  em: EntityManager,
  actor: Actor,
  eventId: string,
  input: z.infer<typeof updateRegistrationSettingsBody>,
): Promise<RegistrationSettings> {
  return em.transactional(async (tx) => {
    await eventOfWorkspace(tx, actor, eventId);
    const current = await readSettings(tx, eventId);
    const next = {
      questions: input.questions ?? current.questions,
      requires_approval: input.requiresApproval ?? current.requires_approval,
      waitlist: input.waitlist ?? current.waitlist,
      reminder_minutes: input.reminderMinutesBefore ?? current.reminder_minutes,
    };
    const [row] = await sql<SettingsRow>(
      tx,
      `insert into registration_settings (event_id, workspace_id, questions, requires_approval, waitlist, reminder_minutes)
       values (?, ?, ?::jsonb, ?, ?, ?::integer[])
       on conflict (event_id) do update set questions = excluded.questions, requires_approval = excluded.requires_approval,
         waitlist = excluded.waitlist, reminder_minutes = excluded.reminder_minutes, updated_at = now()
       returning questions, requires_approval, waitlist, reminder_minutes, updated_at`,
      [
        eventId,
        actor.workspaceId,
        JSON.stringify(next.questions),
        next.requires_approval,
        next.waitlist,
        `{${next.reminder_minutes.join(',')}}`,
      ],
    );
    return toSettings(eventId, row!);
  });
}

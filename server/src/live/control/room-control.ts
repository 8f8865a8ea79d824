import type { ChatMode, LiveServerMessage, WebhookEventType } from '@gathercast/contract';
import type pg from 'pg';
import { withTransaction } from '../../db/pool';
import type { DomainEventBus } from '../../lib/domain-events';
import { notFound, problem } from '../../lib/problem';
import { loadLiveEvent } from '../event-state';
import type { Fanout, Target } from '../fanout';
import { deleteChatLine } from './chat-deletion';
import type { ControlNotice } from './notice';
import { chatSettings } from './room-state';

/** What room control works with: the same on the REST side and on the live gateway. */
export interface RoomControlDeps {
  pool: pg.Pool;
  bus: DomainEventBus;
  fanout: Fanout;
}

/** Who acts on which event: `by` is `api` over REST, the host's participantId on the gateway. */
export interface Acting {
  workspaceId: string;
  eventId: string;
  by: string;
}

/** The event of the workspace, not ended (an ended event's room is closed: nothing to control). */
export async function requireOpenRoom(pool: pg.Pool, workspaceId: string, eventId: string): Promise<void> {
  const { rows } = await pool.query<{ status: string }>(
    'select status from event where id = $1 and workspace_id = $2',
    [eventId, workspaceId],
  );
  if (!rows[0]) throw notFound('Event');
  if (rows[0].status === 'ended')
    throw problem('invalid_state', 'The event has ended; its live room is closed');
}

const notify = (deps: RoomControlDeps, eventId: string, control: ControlNotice) =>
  deps.fanout.publish({ eventId, target: { to: 'all' }, control });
const say = (deps: RoomControlDeps, eventId: string, target: Target, message: LiveServerMessage) =>
  deps.fanout.publish({ eventId, target, message });

const userIdOf = (participantId: string) =>
  participantId.startsWith('user:') ? participantId.slice('user:'.length) : undefined;

/** Writes the sanction row and its webhook in one transaction. */
async function sanction(
  deps: RoomControlDeps,
  acting: Acting,
  participantId: string,
  kind: 'removal' | 'ban',
  reason: string | null,
  webhook: { type: WebhookEventType; data: Record<string, unknown> },
  withAddress = false,
): Promise<void> {
  await withTransaction(deps.pool, async (tx) => {
    // With the address: the one the participant last connected from, whichever process served them
    // (control/client-addresses.ts); a socket still open replaces it with its own (apply-notice.ts).
    await tx.query(
      `insert into live_sanction (workspace_id, event_id, participant_id, kind, reason, with_address, client_address)
       values ($1, $2, $3, $4, $5, $6,
               case when $6 then (select client_address from live_client_address
                                   where event_id = $2 and participant_id = $3) end)
       on conflict (event_id, participant_id, kind)
       do update set reason = excluded.reason, with_address = excluded.with_address,
                     client_address = excluded.client_address, created_at = now()`,
      [acting.workspaceId, acting.eventId, participantId, kind, reason, withAddress],
    );
    await deps.bus.record(tx, {
      type: webhook.type,
      workspaceId: acting.workspaceId,
      eventId: acting.eventId,
      data: { participantId, userId: userIdOf(participantId), reason, by: acting.by, ...webhook.data },
    });
  });
}

/** Closes the participant's sockets everywhere; tokens issued before now are refused (docs/live.md). */
export async function removeParticipant(
  deps: RoomControlDeps,
  acting: Acting,
  participantId: string,
  reason: string | null,
): Promise<void> {
  await sanction(deps, acting, participantId, 'removal', reason, { type: 'participant.removed', data: {} });
  await notify(deps, acting.eventId, {
    kind: 'remove',
    participantId,
    reason,
    banned: false,
    recordAddress: false,
  });
}

/** Removes the participant and refuses them (and with `clientAddress` their address) for the rest of the event. */
export async function banParticipant(
  deps: RoomControlDeps,
  acting: Acting,
  participantId: string,
  input: { reason: string | null; clientAddress: boolean },
): Promise<void> {
  await sanction(
    deps,
    acting,
    participantId,
    'ban',
    input.reason,
    { type: 'participant.banned', data: { clientAddress: input.clientAddress } },
    input.clientAddress,
  );
  await notify(deps, acting.eventId, {
    kind: 'remove',
    participantId,
    reason: input.reason,
    banned: true,
    recordAddress: input.clientAddress,
  });
}

export async function unbanParticipant(
  deps: RoomControlDeps,
  acting: Acting,
  participantId: string,
): Promise<void> {
  await deps.pool.query(
    `delete from live_sanction where event_id = $1 and participant_id = $2 and kind = 'ban'`,
    [acting.eventId, participantId],
  );
  await notify(deps, acting.eventId, { kind: 'changed' });
}

/** Mutes (or unmutes) a participant's chat and questions; they and the moderators hear it. */
export async function setMuted(deps: RoomControlDeps, acting: Acting, participantId: string, muted: boolean) {
  if (muted)
    await deps.pool.query(
      `insert into live_sanction (workspace_id, event_id, participant_id, kind) values ($1, $2, $3, 'mute')
       on conflict do nothing`,
      [acting.workspaceId, acting.eventId, participantId],
    );
  else
    await deps.pool.query(
      `delete from live_sanction where event_id = $1 and participant_id = $2 and kind = 'mute'`,
      [acting.eventId, participantId],
    );
  await notify(deps, acting.eventId, { kind: 'changed' });
  const message: LiveServerMessage = { type: 'participant.muted', participantId, muted };
  await say(deps, acting.eventId, { to: 'participant', participantId }, message);
  await say(deps, acting.eventId, { to: 'moderators' }, message);
}

/** Deletes a chat line for everyone (see chat-deletion.ts for where it is removed from). */
export async function deleteChatMessage(
  deps: RoomControlDeps,
  acting: Acting,
  messageId: string,
): Promise<void> {
  await deleteChatLine(deps.pool, acting, messageId);
  await say(deps, acting.eventId, { to: 'all' }, { type: 'chat.deleted', messageId });
}

/** Deletes a question (and its votes) for everyone; 404 when the event has no such question. */
export async function deleteQuestion(
  deps: RoomControlDeps,
  acting: Acting,
  questionId: string,
): Promise<void> {
  await withTransaction(deps.pool, async (tx) => {
    const { rowCount } = await tx.query('delete from question where id = $1 and event_id = $2', [
      questionId,
      acting.eventId,
    ]);
    if (!rowCount) throw notFound('Question');
    await tx.query(
      `insert into live_deletion (workspace_id, event_id, kind, item_id) values ($1, $2, 'question', $3)
       on conflict do nothing`,
      [acting.workspaceId, acting.eventId, questionId],
    );
  });
  await say(deps, acting.eventId, { to: 'all' }, { type: 'question.deleted', questionId });
}

export interface RoomSettings {
  chatMode: ChatMode;
  slowModeSeconds: number;
  setForEvent: boolean;
}

/** The settings in force: the event's, else the governing phase's config. */
export async function roomSettings(pool: pg.Pool, eventId: string): Promise<RoomSettings> {
  const event = await loadLiveEvent(pool, eventId);
  if (!event) throw notFound('Event');
  const { control } = event;
  return {
    ...chatSettings(control, event.governingPhase?.config),
    setForEvent: control.chatMode !== null || control.slowModeSeconds !== null,
  };
}

/**
 * Sets (or with null clears) the event's chat mode and slow mode; a field left out keeps its value.
 * Every process reads the new settings at once; every socket hears `room.settings`.
 */
export async function updateRoom(
  deps: RoomControlDeps,
  acting: Acting,
  input: { chatMode?: ChatMode | null; slowModeSeconds?: number | null },
): Promise<RoomSettings> {
  await deps.pool.query(
    `insert into live_room (event_id, workspace_id, chat_mode, slow_mode_seconds) values ($1, $2, $3, $4)
     on conflict (event_id) do update set
       chat_mode = case when $5 then excluded.chat_mode else live_room.chat_mode end,
       slow_mode_seconds = case when $6 then excluded.slow_mode_seconds else live_room.slow_mode_seconds end,
       updated_at = now()`,
    [
      acting.eventId,
      acting.workspaceId,
      input.chatMode ?? null,
      input.slowModeSeconds ?? null,
      input.chatMode !== undefined,
      input.slowModeSeconds !== undefined,
    ],
  );
  await notify(deps, acting.eventId, { kind: 'changed' });
  const settings = await roomSettings(deps.pool, acting.eventId);
  await say(
    deps,
    acting.eventId,
    { to: 'all' },
    {
      type: 'room.settings',
      chatMode: settings.chatMode,
      slowModeSeconds: settings.slowModeSeconds,
    },
  );
  return settings;
}

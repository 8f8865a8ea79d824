import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppContext } from '../lib/context';
import { timeOrderedPage, type PageInput } from '../db/time-ordered-page';
import { sql } from '../db/sql';
import { type FieldError, problem } from '../lib/problem';
import type { Actor } from '../lib/actor';
import {
  type ClipRow,
  type ClipView,
  clipColumns,
  type RecordingRow,
  type RecordingView,
  recordingColumns,
  toClip,
  toRecording,
} from './rows';
import { eventOfWorkspace } from '../events/locks';
import { recordingOfWorkspace } from './scope';
import { ofWorkspace } from '../lib/tenancy';

type Bus = Pick<AppContext, 'bus'>;

/**
 * Recordings and clips, ingested by the media pipeline through the API. Each create
 * writes its `*.ready` domain event in the same transaction (the webhook outbox), with
 * `assetId` = the created row's id.
 */
export function createRecording(
  ctx: Bus,
  em: EntityManager,
  actor: Actor,
  eventId: string,
  input: { url: string; durationSeconds?: number },
): Promise<RecordingView> {
  return em.transactional(async (tx) => {
    const event = await eventOfWorkspace(tx, actor, eventId, 'key share');
    const [row] = await sql<RecordingRow>(
      tx,
      `insert into recording (id, event_id, url, duration_seconds) values (?, ?, ?, ?) returning ${recordingColumns}`,
      [randomUUID(), event.id, input.url, input.durationSeconds ?? null],
    );
    await ctx.bus.record(tx, {
      type: 'recording.ready',
      workspaceId: event.workspace_id,
      eventId: event.id,
      data: { assetId: row!.id },
      occurredAt: new Date(row!.created_at),
    });
    return toRecording(row!);
  });
}

/** Newest first. */
/** Newest first. */
export async function listRecordings(em: EntityManager, actor: Actor, eventId: string, input: PageInput) {
  await eventOfWorkspace(em, actor, eventId);
  const page = await timeOrderedPage<RecordingRow>(
    em,
    { select: `select ${recordingColumns} from recording where event_id = ?`, params: [eventId], newestFirst: true },
    input,
  );
  return { recordings: page.rows.map(toRecording), nextCursor: page.nextCursor };
}

/** Deletes the recording and (by cascade) its clips; its transcripts stay, unlinked. */
export async function deleteRecording(em: EntityManager, actor: Actor, recordingId: string): Promise<void> {
  const rows = await sql(
    em,
    `delete from recording r using event e
      where r.id = ? and e.id = r.event_id and e.workspace_id = ? returning r.id`,
    [recordingId, actor.workspaceId],
  );
  ofWorkspace(rows[0], 'Recording');
}

/**
 * A clip is a time range of a recording the pipeline has already handed us, so it is `ready` at
 * once and `clip.ready` fires with its creation (docs/content.md). The range must be non-empty and,
 * when the recording's duration is known, inside it.
 */
export function createClip(
  ctx: Bus,
  em: EntityManager,
  actor: Actor,
  recordingId: string,
  input: { title?: string; startSeconds: number; endSeconds: number },
): Promise<ClipView> {
  return em.transactional(async (tx) => {
    const recording = await recordingOfWorkspace(tx, actor, recordingId, true);
    checkClipBounds(input, recording.duration_seconds === null ? null : Number(recording.duration_seconds));
    const [row] = await sql<ClipRow>(
      tx,
      `insert into clip (id, recording_id, event_id, title, start_seconds, end_seconds, status)
       values (?, ?, ?, ?, ?, ?, 'ready') returning ${clipColumns}`,
      [
        randomUUID(),
        recording.id,
        recording.event_id,
        input.title ?? null,
        input.startSeconds,
        input.endSeconds,
      ],
    );
    await ctx.bus.record(tx, {
      type: 'clip.ready',
      workspaceId: recording.workspace_id,
      eventId: recording.event_id,
      data: { assetId: row!.id },
      occurredAt: new Date(row!.created_at),
    });
    return toClip(row!);
  });
}

function checkClipBounds(input: { startSeconds: number; endSeconds: number }, duration: number | null): void {
  const errors: FieldError[] = [];
  if (input.endSeconds <= input.startSeconds) {
    errors.push({ path: 'body.endSeconds', code: 'invalid_value', message: 'must be greater than startSeconds' });
  }
  if (duration !== null) {
    if (input.startSeconds >= duration) {
      errors.push({
        path: 'body.startSeconds',
        code: 'too_large',
        message: `must be less than the recording's duration (${duration} s)`,
      });
    }
    if (input.endSeconds > duration) {
      errors.push({
        path: 'body.endSeconds',
        code: 'too_large',
        message: `must not exceed the recording's duration (${duration} s)`,
      });
    }
  }
  if (errors.length) {
    throw problem('bad_request', errors.map((e) => `${e.path}: ${e.message}`).join('; '), { errors });
  }
}

/** Oldest first: the order of the cuts as they were requested. */
export async function listClips(em: EntityManager, actor: Actor, recordingId: string, input: PageInput) {
  await recordingOfWorkspace(em, actor, recordingId);
  const page = await timeOrderedPage<ClipRow>(
    em,
    { select: `select ${clipColumns} from clip where recording_id = ?`, params: [recordingId] },
    input,
  );
  return { clips: page.rows.map(toClip), nextCursor: page.nextCursor };
}

export async function deleteClip(em: EntityManager, actor: Actor, clipId: string): Promise<void> {
  const rows = await sql(
    em,
    `delete from clip c using event e where c.id = ? and e.id = c.event_id and e.workspace_id = ? returning c.id`,
    [clipId, actor.workspaceId],
  );
  ofWorkspace(rows[0], 'Clip');
}

import type { EntityManager } from '@mikro-orm/postgresql';
import { iso, sql } from '../db/sql';
import type { RequestAuth } from '../lib/actor';
import { notFound } from '../lib/problem';
import { findPublicEvent } from '../public/access';
import { publicCastOf } from '../public/view-service';
import {
  type ClipRow,
  clipColumns,
  type RecordingRow,
  recordingColumns,
  type SummaryRow,
  summaryColumns,
  toClip,
  toRecording,
  toSummary,
} from './rows';

/**
 * Public post-event views (recap, content, asset), gated exactly like the public event view:
 * drafts never, private events only with a session of the owning workspace, 404 otherwise
 * (public/access.ts). Transcripts' segments are never public; table talk never reaches the summary.
 */

async function visibleEvent(em: EntityManager, auth: RequestAuth, eventId: string) {
  const found = await findPublicEvent(em, auth, eventId);
  if (!found) throw notFound('Event');
  const e = found.event;
  return { id: e.id, title: e.title, scheduledAt: iso(e.scheduled_at) };
}

const latestSummary = async (em: EntityManager, eventId: string) => {
  const [row] = await sql<SummaryRow>(
    em,
    `select ${summaryColumns} from content_summary where event_id = ? order by generated_at desc, id desc limit 1`,
    [eventId],
  );
  return row ? toSummary(row) : null;
};

/** The latest recording with its clips, and the latest AI summary. */
export async function publicRecap(em: EntityManager, auth: RequestAuth, eventId: string) {
  const event = await visibleEvent(em, auth, eventId);
  const [recording] = await sql<RecordingRow>(
    em,
    `select ${recordingColumns} from recording where event_id = ? order by created_at desc, id limit 1`,
    [eventId],
  );
  const clips = recording
    ? await sql<ClipRow>(
        em,
        `select ${clipColumns} from clip where recording_id = ? order by created_at, id`,
        [recording.id],
      )
    : [];
  return {
    event,
    recording: recording ? toRecording(recording) : null,
    clips: clips.map(toClip),
    summary: await latestSummary(em, eventId),
  };
}

/** Every recording (newest first), every clip (oldest first), the transcripts (ids only), the summary and the cast. */
export async function publicContent(em: EntityManager, auth: RequestAuth, eventId: string) {
  const event = await visibleEvent(em, auth, eventId);
  const [recordings, clips, transcripts, summary, cast] = await Promise.all([
    sql<RecordingRow>(
      em,
      `select ${recordingColumns} from recording where event_id = ? order by created_at desc, id`,
      [eventId],
    ),
    sql<ClipRow>(em, `select ${clipColumns} from clip where event_id = ? order by created_at, id`, [eventId]),
    sql<{ id: string; created_at: Date }>(
      em,
      'select id, created_at from transcript where event_id = ? order by created_at desc, id',
      [eventId],
    ),
    latestSummary(em, eventId),
    publicCastOf(em, eventId),
  ]);
  return {
    event,
    recordings: recordings.map(toRecording),
    clips: clips.map(toClip),
    transcripts: transcripts.map((t) => ({ id: t.id, createdAt: iso(t.created_at)! })),
    summary,
    cast: cast.map((c) => ({ name: c.name, role: c.role })),
  };
}

/** A recording or a clip by id, with its event's context; gated on that event's visibility. */
export async function publicAsset(em: EntityManager, auth: RequestAuth, assetId: string) {
  const [recording] = await sql<RecordingRow>(em, `select ${recordingColumns} from recording where id = ?`, [
    assetId,
  ]);
  const [clip] = recording
    ? []
    : await sql<ClipRow>(em, `select ${clipColumns} from clip where id = ?`, [assetId]);
  const eventId = recording?.event_id ?? clip?.event_id;
  if (!eventId) throw notFound('Asset');
  const found = await findPublicEvent(em, auth, eventId);
  if (!found) throw notFound('Asset');
  const event = { id: found.event.id, title: found.event.title, scheduledAt: iso(found.event.scheduled_at) };
  return recording
    ? { kind: 'recording' as const, recording: toRecording(recording), clip: null, event }
    : { kind: 'clip' as const, recording: null, clip: toClip(clip!), event };
}

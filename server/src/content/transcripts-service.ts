import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { AppContext } from '../lib/context';
import { timeOrderedPage, type PageInput } from '../db/time-ordered-page';
import { sql } from '../db/sql';
import { phasesOf } from '../events/locks';
import { invalidField, problem } from '../lib/problem';
import type { Actor } from '../lib/actor';
import {
  type Segment,
  type TranscriptRow,
  type TranscriptView,
  toTranscript,
  transcriptColumns,
} from './rows';
import { eventOfWorkspace } from '../events/locks';
import { digestTable, type GeneratedSummary, summarize } from './summary-engine';
import { breakoutPrompts, buildTableNotes, splitByTable } from './table-notes';
import { type PreparedTable, queueTableNotes, resolveUsers, storeTableNotes } from './table-notes-store';
import { ofWorkspace } from '../lib/tenancy';

type Ctx = Pick<AppContext, 'bus' | 'config' | 'logger' | 'emails'>;

function checkSegments(segments: Segment[]): void {
  const errors = segments.flatMap((s, i) =>
    s.endSeconds < s.startSeconds
      ? [{ path: `body.segments.${i}.endSeconds`, code: 'invalid_value' as const, message: 'must not be less than startSeconds' }]
      : [],
  );
  if (errors.length) {
    throw problem('bad_request', errors.map((e) => `${e.path}: ${e.message}`).join('; '), { errors });
  }
}

/** Summary and table notes are computed before the transaction (the LLM may take seconds). */
async function prepare(
  ctx: Ctx,
  em: EntityManager,
  event: { id: string; workspace_id: string },
  segments: Segment[],
) {
  const engine = { llm: ctx.config.llm, logger: ctx.logger };
  const { tables, rest } = splitByTable(event.id, segments);
  const [summary, digests, users, phases] = await Promise.all([
    rest.length ? summarize(engine, rest) : Promise.resolve(null as GeneratedSummary | null),
    Promise.all(tables.map((t) => digestTable(engine, t.segments))),
    resolveUsers(
      em,
      event.workspace_id,
      tables.flatMap((t) => t.segments.flatMap((s) => (s.userId ? [s.userId] : []))),
    ),
    tables.length ? phasesOf(em, event.id) : Promise.resolve([]),
  ]);
  const prompts = breakoutPrompts(phases);
  const prepared: PreparedTable[] = tables.map((table, i) => {
    const recipients = new Map<string, { id: string; name: string | null; email: string | null }>();
    for (const s of table.segments) {
      const user = s.userId ? users.get(s.userId) : undefined;
      if (user?.email) recipients.set(user.id, user);
    }
    return {
      table,
      notes: buildTableNotes(table, digests[i]!.digest, prompts, users),
      engine: digests[i]!.engine,
      recipients: [...recipients.values()],
    };
  });
  return { summary, tables: prepared };
}

/**
 * Ingests a transcript. In one transaction: the transcript, its AI summary (from the
 * segments outside breakout tables), each table's notes with one `gcn_` token per table member, and
 * `transcript.ready`. The table-notes emails go out after the commit, before the 201.
 */
export async function createTranscript(
  ctx: Ctx,
  em: EntityManager,
  actor: Actor,
  eventId: string,
  input: { recordingId?: string; segments: Segment[] },
): Promise<TranscriptView> {
  checkSegments(input.segments);
  const event = await eventOfWorkspace(em, actor, eventId);
  const prepared = await prepare(ctx, em, event, input.segments);
  const now = new Date();
  const row = await em.transactional(async (tx) => {
    await eventOfWorkspace(tx, actor, eventId, 'key share');
    if (input.recordingId) {
      const [rec] = await sql(tx, 'select id from recording where id = ? and event_id = ? for key share', [
        input.recordingId,
        eventId,
      ]);
      if (!rec) {
        throw invalidField('body.recordingId', 'invalid_value', 'is not a recording of this event');
      }
    }
    const [row] = await sql<TranscriptRow>(
      tx,
      `insert into transcript (id, event_id, recording_id, segments, created_at) values (?, ?, ?, ?, ?)
       returning ${transcriptColumns}`,
      [randomUUID(), eventId, input.recordingId ?? null, JSON.stringify(input.segments), now],
    );
    if (prepared.summary) {
      await sql(
        tx,
        `insert into content_summary (id, event_id, transcript_id, text, speakers, engine, generated_at)
         values (?, ?, ?, ?, ?, ?, ?)`,
        [
          randomUUID(),
          eventId,
          row!.id,
          prepared.summary.text,
          JSON.stringify(prepared.summary.speakers),
          prepared.summary.engine,
          now,
        ],
      );
    }
    const emails = await storeTableNotes(
      tx,
      ctx.config.publicBaseUrl,
      eventId,
      row!.id,
      prepared.tables,
      now,
    );
    await ctx.bus.record(tx, {
      type: 'transcript.ready',
      workspaceId: event.workspace_id,
      eventId,
      data: { assetId: row!.id },
      occurredAt: now,
    });
    await queueTableNotes(ctx, tx, event.title, emails);
    return row!;
  });
  return toTranscript(row);
}

/** Newest first. */
/** Newest first. */
export async function listTranscripts(em: EntityManager, actor: Actor, eventId: string, input: PageInput) {
  await eventOfWorkspace(em, actor, eventId);
  const page = await timeOrderedPage<TranscriptRow>(
    em,
    { select: `select ${transcriptColumns} from transcript where event_id = ?`, params: [eventId], newestFirst: true },
    input,
  );
  return { transcripts: page.rows.map(toTranscript), nextCursor: page.nextCursor };
}

/** Deletes the transcript and, by cascade, its summary, table notes and their tokens. */
export async function deleteTranscript(em: EntityManager, actor: Actor, transcriptId: string): Promise<void> {
  const rows = await sql(
    em,
    `delete from transcript t using event e
      where t.id = ? and e.id = t.event_id and e.workspace_id = ? returning t.id`,
    [transcriptId, actor.workspaceId],
  );
  ofWorkspace(rows[0], 'Transcript');
}

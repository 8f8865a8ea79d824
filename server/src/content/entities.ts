import { defineEntity, type InferEntity } from '@mikro-orm/core';

/**
 * Post-event content of an event (docs/content.md). The services read and write these tables with
 * SQL; the entities describe the schema for the ORM and other domains. Foreign keys are scalar ids.
 */
export const Recording = defineEntity({
  name: 'Recording',
  tableName: 'recording',
  indexes: [
    {
      name: 'recording_event_idx',
      expression:
        'CREATE INDEX recording_event_idx ON public.recording USING btree (event_id, created_at DESC, id)',
    },
  ],
  checks: [{ name: 'recording_duration_seconds_check', expression: 'duration_seconds >= 0 precision' }],
  properties: (p) => ({
    id: p.uuid().primary(),
    eventId: p.uuid(),
    url: p.text(),
    durationSeconds: p.double().nullable(),
    createdAt: p.datetime().defaultRaw('now()'),
  }),
});
export type Recording = InferEntity<typeof Recording>;

export const Clip = defineEntity({
  name: 'Clip',
  tableName: 'clip',
  indexes: [
    { name: 'clip_event_idx', properties: ['eventId', 'createdAt', 'id'] },
    { name: 'clip_recording_idx', properties: ['recordingId', 'createdAt', 'id'] },
  ],
  checks: [
    { name: 'clip_check', expression: 'end_seconds > start_seconds' },
    { name: 'clip_start_seconds_check', expression: 'start_seconds >= 0 precision' },
  ],
  properties: (p) => ({
    id: p.uuid().primary(),
    recordingId: p.uuid(),
    eventId: p.uuid(),
    title: p.text().nullable(),
    startSeconds: p.double(),
    endSeconds: p.double(),
    status: p.enum(['pending', 'ready'] as const),
    createdAt: p.datetime().defaultRaw('now()'),
  }),
});
export type Clip = InferEntity<typeof Clip>;

export const Transcript = defineEntity({
  name: 'Transcript',
  tableName: 'transcript',
  indexes: [
    {
      name: 'transcript_event_idx',
      expression:
        'CREATE INDEX transcript_event_idx ON public.transcript USING btree (event_id, created_at DESC, id)',
    },
    {
      name: 'transcript_recording_idx',
      expression:
        'CREATE INDEX transcript_recording_idx ON public.transcript USING btree (recording_id) WHERE (recording_id IS NOT NULL)',
    },
  ],
  properties: (p) => ({
    id: p.uuid().primary(),
    eventId: p.uuid(),
    recordingId: p.uuid().nullable(),
    segments: p.json<unknown[]>(),
    createdAt: p.datetime().defaultRaw('now()'),
  }),
});
export type Transcript = InferEntity<typeof Transcript>;

/** The AI summary of one transcript: text plus per-speaker statistics. */
export const ContentSummary = defineEntity({
  name: 'ContentSummary',
  tableName: 'content_summary',
  indexes: [
    {
      name: 'content_summary_event_idx',
      expression:
        'CREATE INDEX content_summary_event_idx ON public.content_summary USING btree (event_id, generated_at DESC, id)',
    },
  ],
  uniques: [{ name: 'content_summary_transcript_id_key', properties: ['transcriptId'] }],
  properties: (p) => ({
    id: p.uuid().primary(),
    eventId: p.uuid(),
    transcriptId: p.uuid(),
    text: p.text(),
    speakers: p.json<unknown[]>(),
    engine: p.enum(['extractive', 'llm'] as const),
    generatedAt: p.datetime().defaultRaw('now()'),
  }),
});
export type ContentSummary = InferEntity<typeof ContentSummary>;

/** The notes of one breakout table, made from one transcript. */
export const TableNotes = defineEntity({
  name: 'TableNotes',
  tableName: 'table_notes',
  indexes: [{ name: 'table_notes_event_idx', properties: ['eventId'] }],
  uniques: [{ name: 'table_notes_transcript_id_room_id_key', properties: ['transcriptId', 'roomId'] }],
  checks: [{ name: 'table_notes_table_number_check', expression: 'table_number >= 1' }],
  properties: (p) => ({
    id: p.uuid().primary(),
    eventId: p.uuid(),
    transcriptId: p.uuid(),
    roomId: p.text(),
    tableNumber: p.integer(),
    summary: p.json<Record<string, unknown>>(),
    stats: p.json<Record<string, unknown>>().nullable(),
    people: p.json<unknown[]>(),
    engine: p.enum(['extractive', 'llm'] as const),
    generatedAt: p.datetime().defaultRaw('now()'),
  }),
});
export type TableNotes = InferEntity<typeof TableNotes>;

/** A `gcn_` token of one recipient for one table's notes; only its SHA-256 is kept. */
export const TableNotesToken = defineEntity({
  name: 'TableNotesToken',
  tableName: 'table_notes_token',
  indexes: [
    { name: 'table_notes_token_event_idx', properties: ['eventId'] },
    { name: 'table_notes_token_notes_idx', properties: ['tableNotesId'] },
    { name: 'table_notes_token_user_idx', properties: ['userId'] },
  ],
  properties: (p) => ({
    tokenHash: p.text().primary(),
    tableNotesId: p.uuid(),
    eventId: p.uuid(),
    userId: p.uuid(),
    expiresAt: p.datetime(),
    createdAt: p.datetime().defaultRaw('now()'),
  }),
});
export type TableNotesToken = InferEntity<typeof TableNotesToken>;

export const contentEntities = [Recording, Clip, Transcript, ContentSummary, TableNotes, TableNotesToken];

import { defineEntity, type InferEntity } from '@mikro-orm/core';

/**
 * Post-event content of an event (docs/content.md). The services read and write these tables with
 * SQL; the entities describe the schema for the ORM and other domains. Foreign keys are scalar ids.
 */
export const Recording = defineEntity({
  name: 'Recording',
  tableName: 'recording',
  properties: (p) => ({
    id: p.uuid().primary(),
    eventId: p.uuid(),
    url: p.text(),
    durationSeconds: p.double().nullable(),
    createdAt: p.datetime(),
  }),
});
export type Recording = InferEntity<typeof Recording>;

export const Clip = defineEntity({
  name: 'Clip',
  tableName: 'clip',
  properties: (p) => ({
    id: p.uuid().primary(),
    recordingId: p.uuid(),
    eventId: p.uuid(),
    title: p.text().nullable(),
    startSeconds: p.double(),
    endSeconds: p.double(),
    status: p.enum(['pending', 'ready'] as const),
    createdAt: p.datetime(),
  }),
});
export type Clip = InferEntity<typeof Clip>;

export const Transcript = defineEntity({
  name: 'Transcript',
  tableName: 'transcript',
  properties: (p) => ({
    id: p.uuid().primary(),
    eventId: p.uuid(),
    recordingId: p.uuid().nullable(),
    segments: p.json<unknown[]>(),
    createdAt: p.datetime(),
  }),
});
export type Transcript = InferEntity<typeof Transcript>;

/** The AI summary of one transcript: text plus per-speaker statistics. */
export const ContentSummary = defineEntity({
  name: 'ContentSummary',
  tableName: 'content_summary',
  properties: (p) => ({
    id: p.uuid().primary(),
    eventId: p.uuid(),
    transcriptId: p.uuid(),
    text: p.text(),
    speakers: p.json<unknown[]>(),
    engine: p.enum(['extractive', 'llm'] as const),
    generatedAt: p.datetime(),
  }),
});
export type ContentSummary = InferEntity<typeof ContentSummary>;

/** The notes of one breakout table, made from one transcript. */
export const TableNotes = defineEntity({
  name: 'TableNotes',
  tableName: 'table_notes',
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
    generatedAt: p.datetime(),
  }),
});
export type TableNotes = InferEntity<typeof TableNotes>;

/** A `gcn_` token of one recipient for one table's notes; only its SHA-256 is kept. */
export const TableNotesToken = defineEntity({
  name: 'TableNotesToken',
  tableName: 'table_notes_token',
  properties: (p) => ({
    tokenHash: p.text().primary(),
    tableNotesId: p.uuid(),
    eventId: p.uuid(),
    userId: p.uuid(),
    expiresAt: p.datetime(),
    createdAt: p.datetime(),
  }),
});
export type TableNotesToken = InferEntity<typeof TableNotesToken>;

export const contentEntities = [Recording, Clip, Transcript, ContentSummary, TableNotes, TableNotesToken];

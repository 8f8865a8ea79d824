import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { commonErrors, idParams, isoTimestamp, meta, noContent, uuid } from './common';

const c = initContract();

export const recordingSchema = z.object({
  id: uuid,
  eventId: uuid,
  url: z.string(),
  durationSeconds: z.number().nullable(),
  createdAt: isoTimestamp,
});

export const transcriptSegmentSchema = z.object({
  speakerName: z.string().max(200).nullable().optional(),
  userId: z.string().max(200).nullable().optional(),
  roomId: z.string().max(200).nullable().optional().describe('Breakout table room, for table notes'),
  startSeconds: z.number().min(0),
  endSeconds: z.number().min(0),
  text: z.string().max(20_000),
});

export const transcriptSchema = z.object({
  id: uuid,
  eventId: uuid,
  recordingId: uuid.nullable(),
  segments: z.array(transcriptSegmentSchema),
  createdAt: isoTimestamp,
});

export const clipSchema = z.object({
  id: uuid,
  recordingId: uuid,
  eventId: uuid,
  title: z.string().nullable(),
  startSeconds: z.number(),
  endSeconds: z.number(),
  status: z.enum(['pending', 'ready']),
  createdAt: isoTimestamp,
});

const access = meta({ access: 'member', workspace: 'context' });

export const contentContract = c.router(
  {
    createRecording: {
      method: 'POST',
      path: '/v1/events/:id/recordings',
      pathParams: idParams,
      body: z.object({ url: z.string().url().max(2000), durationSeconds: z.number().min(0).optional() }),
      responses: { 201: recordingSchema },
      metadata: access,
      summary: 'Ingest a merged recording (fires recording.ready)',
    },
    listRecordings: {
      method: 'GET',
      path: '/v1/events/:id/recordings',
      pathParams: idParams,
      responses: { 200: z.object({ recordings: z.array(recordingSchema) }) },
      metadata: access,
      summary: 'List recordings',
    },
    deleteRecording: {
      method: 'DELETE',
      path: '/v1/recordings/:id',
      pathParams: idParams,
      body: noContent,
      responses: { 204: noContent },
      metadata: access,
      summary: 'Delete a recording and its clips',
    },
    createTranscript: {
      method: 'POST',
      path: '/v1/events/:id/transcripts',
      pathParams: idParams,
      body: z.object({
        recordingId: uuid.optional(),
        segments: z.array(transcriptSegmentSchema).min(1).max(20_000),
      }),
      responses: { 201: transcriptSchema },
      metadata: access,
      summary: 'Ingest a transcript (fires transcript.ready; produces the summary and table notes)',
    },
    listTranscripts: {
      method: 'GET',
      path: '/v1/events/:id/transcripts',
      pathParams: idParams,
      responses: { 200: z.object({ transcripts: z.array(transcriptSchema) }) },
      metadata: access,
      summary: 'List transcripts',
    },
    deleteTranscript: {
      method: 'DELETE',
      path: '/v1/transcripts/:id',
      pathParams: idParams,
      body: noContent,
      responses: { 204: noContent },
      metadata: access,
      summary: 'Delete a transcript',
    },
    createClip: {
      method: 'POST',
      path: '/v1/recordings/:id/clips',
      pathParams: idParams,
      body: z.object({
        title: z.string().min(1).max(200).optional(),
        startSeconds: z.number().min(0),
        endSeconds: z.number().min(0),
      }),
      responses: { 201: clipSchema },
      metadata: access,
      summary: 'Request a clip of a recording (fires clip.ready)',
    },
    listClips: {
      method: 'GET',
      path: '/v1/recordings/:id/clips',
      pathParams: idParams,
      responses: { 200: z.object({ clips: z.array(clipSchema) }) },
      metadata: access,
      summary: 'List a recording’s clips',
    },
    deleteClip: {
      method: 'DELETE',
      path: '/v1/clips/:id',
      pathParams: idParams,
      body: noContent,
      responses: { 204: noContent },
      metadata: access,
      summary: 'Delete a clip',
    },
  },
  { commonResponses: commonErrors },
);

export const broadcastContract = c.router(
  {
    start: {
      method: 'POST',
      path: '/v1/events/:id/broadcast/start',
      pathParams: idParams,
      body: noContent,
      responses: {
        200: z.object({ broadcastId: uuid, eventId: uuid, status: z.enum(['live', 'paused']), playbackUrl: z.string() }),
      },
      metadata: access,
      summary: 'Start streaming the active broadcast phase (fires broadcast.live)',
    },
    pause: {
      method: 'POST',
      path: '/v1/events/:id/broadcast/pause',
      pathParams: idParams,
      body: noContent,
      responses: {
        200: z.object({ broadcastId: uuid, eventId: uuid, status: z.enum(['live', 'paused']), playbackUrl: z.string() }),
      },
      metadata: access,
      summary: 'Pause the broadcast (fires broadcast.paused)',
    },
  },
  { commonResponses: commonErrors },
);

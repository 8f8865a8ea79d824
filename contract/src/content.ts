import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { commonErrors, cursorPage, idParams, isoTimestamp, meta, noContent, paginationQuery, pagingRule, uuid } from './common';

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

const read = meta({ access: 'member', scope: 'content:read', workspace: 'context' });
const write = meta({ access: 'member', scope: 'content:write', workspace: 'context' });
const broadcastControl = meta({ access: 'member', scope: 'events:write', workspace: 'context', errors: ['invalid_state'] });

export const contentContract = c.router(
  {
    createRecording: {
      method: 'POST',
      path: '/v1/events/:id/recordings',
      pathParams: idParams,
      body: z.object({ url: z.string().url().max(2000), durationSeconds: z.number().min(0).optional() }),
      responses: { 201: recordingSchema },
      metadata: write,
      summary: 'Ingest a merged recording (fires recording.ready)',
      description:
        'Ingests a merged recording of the event (its media URL and duration) and fires `recording.ready`.',
    },
    listRecordings: {
      method: 'GET',
      path: '/v1/events/:id/recordings',
      pathParams: idParams,
      query: paginationQuery,
      responses: { 200: cursorPage('recordings', recordingSchema) },
      metadata: read,
      summary: 'List recordings',
      description:
        `The event’s recordings, newest first. Another workspace’s event answers 404. ${pagingRule}`,
    },
    deleteRecording: {
      method: 'DELETE',
      path: '/v1/recordings/:id',
      pathParams: idParams,
      body: noContent,
      responses: { 204: noContent },
      metadata: write,
      summary: 'Delete a recording and its clips',
      description:
        'Deletes a recording with its clips; they leave the public recap and content views at once.',
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
      metadata: write,
      summary: 'Ingest a transcript (fires transcript.ready; produces the summary and table notes)',
      description:
        'Ingests a transcript of the event (timed segments with speakers) and fires `transcript.ready`. The event’s summary and the breakout tables’ notes are produced from it in the background.',
    },
    listTranscripts: {
      method: 'GET',
      path: '/v1/events/:id/transcripts',
      pathParams: idParams,
      query: paginationQuery,
      responses: { 200: cursorPage('transcripts', transcriptSchema) },
      metadata: read,
      summary: 'List transcripts',
      description:
        `The event’s transcripts, with their segments, newest first. Another workspace’s event answers 404. ${pagingRule}`,
    },
    deleteTranscript: {
      method: 'DELETE',
      path: '/v1/transcripts/:id',
      pathParams: idParams,
      body: noContent,
      responses: { 204: noContent },
      metadata: write,
      summary: 'Delete a transcript',
      description:
        'Deletes a transcript. The summary and table notes already produced from it stay.',
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
      metadata: write,
      summary: 'Request a clip of a recording (fires clip.ready)',
      description:
        'Requests a clip (a time range) of a recording; `clip.ready` fires when it is ready.',
    },
    listClips: {
      method: 'GET',
      path: '/v1/recordings/:id/clips',
      pathParams: idParams,
      query: paginationQuery,
      responses: { 200: cursorPage('clips', clipSchema) },
      metadata: read,
      summary: 'List a recording’s clips',
      description:
        `The recording’s clips, ready or still being produced, oldest first. ${pagingRule}`,
    },
    deleteClip: {
      method: 'DELETE',
      path: '/v1/clips/:id',
      pathParams: idParams,
      body: noContent,
      responses: { 204: noContent },
      metadata: write,
      summary: 'Delete a clip',
      description:
        'Deletes a clip; it leaves the public views at once.',
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
      metadata: broadcastControl,
      summary: 'Start streaming the active broadcast phase (fires broadcast.live)',
      description:
        'Starts streaming the active broadcast phase and fires `broadcast.live` with the playback URL. The event must be live with a broadcast phase active (409 `invalid_state` otherwise); starting a paused broadcast resumes it.',
    },
    pause: {
      method: 'POST',
      path: '/v1/events/:id/broadcast/pause',
      pathParams: idParams,
      body: noContent,
      responses: {
        200: z.object({ broadcastId: uuid, eventId: uuid, status: z.enum(['live', 'paused']), playbackUrl: z.string() }),
      },
      metadata: broadcastControl,
      summary: 'Pause the broadcast (fires broadcast.paused)',
      description:
        'Pauses the broadcast and fires `broadcast.paused`. Only while the event is live (409 `invalid_state`).',
    },
  },
  { commonResponses: commonErrors },
);

import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { commonErrors, idParams, isoTimestamp, meta, paginationQuery, uuid } from './common';

const c = initContract();

export const attendeeKinds = ['registrant', 'user', 'guest', 'anonymous'] as const;

export const attendeeSchema = z.object({
  participantId: z.string().describe('As on the live plane: `entry:…`, `user:…`, `guest:…` or `anon:…`'),
  kind: z.enum(attendeeKinds),
  registrationId: uuid.nullable(),
  userId: uuid.nullable(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  firstJoinedAt: isoTimestamp,
  lastLeftAt: isoTimestamp,
  minutes: z.number().describe('Time in the live room, intervals merged, to 0.01 min'),
  intervals: z.array(z.object({ joinedAt: isoTimestamp, leftAt: isoTimestamp })),
  phases: z.array(z.object({ phaseId: uuid, position: z.number().int(), minutes: z.number() })),
  tables: z.array(z.object({ phaseId: uuid, round: z.number().int(), table: z.number().int() })),
});
export type Attendee = z.infer<typeof attendeeSchema>;

export const attendanceSummarySchema = z.object({
  eventId: uuid,
  generatedAt: isoTimestamp,
  startedAt: isoTimestamp.nullable(),
  endedAt: isoTimestamp,
  uniqueAttendees: z.number().int(),
  peakConcurrent: z.number().int(),
  totalMinutes: z.number(),
  registrants: z.number().int().describe('Registrations holding a seat when the event ended'),
  registrantsAttended: z.number().int(),
  showUpRate: z
    .number()
    .nullable()
    .describe('registrantsAttended ÷ registrants (0 to 1); null without registrants'),
  questions: z.number().int(),
  questionVotes: z.number().int(),
  polls: z.array(
    z.object({
      pollId: uuid,
      question: z.string(),
      options: z.array(z.object({ text: z.string(), votes: z.number().int() })),
      votes: z.number().int(),
    }),
  ),
  pollVotes: z.number().int(),
  reactions: z
    .number()
    .int()
    .nullable()
    .describe(
      'Reactions sent, every emoji together (GET /v1/events/{id}/reactions has them per emoji); null only in a report made before reaction totals were kept',
    ),
  chatLines: z
    .number()
    .int()
    .nullable()
    .describe(
      'Lines in the chat log at the report’s making (deleted lines not counted); null only in a report made before the chat log was kept',
    ),
});
export type AttendanceSummary = z.infer<typeof attendanceSummarySchema>;

const readyOnly = meta({
  access: 'member',
  scope: 'events:read',
  workspace: 'context',
  errors: ['invalid_state'],
});

export const attendanceContract = c.router(
  {
    summary: {
      method: 'GET',
      path: '/v1/events/:id/attendance',
      pathParams: idParams,
      responses: { 200: attendanceSummarySchema },
      metadata: readyOnly,
      summary: 'Attendance and engagement of an ended event',
      description:
        'Unique attendees, peak concurrency, show-up rate of registrants, questions, votes, poll results, reactions and chat lines. Ready within 60 s of the event’s end (`event.attendance_ready` fires); before that, 409 `invalid_state`.',
    },
    attendees: {
      method: 'GET',
      path: '/v1/events/:id/attendance/attendees',
      pathParams: idParams,
      query: paginationQuery,
      responses: { 200: z.object({ attendees: z.array(attendeeSchema), nextCursor: z.string().nullable() }) },
      metadata: readyOnly,
      summary: 'Who attended, when and for how long',
      description:
        'One row per person who was in the live room (registrant, user, guest, anonymous viewer): their intervals (reconnects merged), minutes, phases and breakout tables. Ordered by first join; up to `limit` (default and maximum 100) per page.',
    },
    export: {
      method: 'GET',
      path: '/v1/events/:id/attendance/export.csv',
      pathParams: idParams,
      responses: { 200: c.otherResponse({ contentType: 'text/csv; charset=utf-8', body: z.string() }) },
      metadata: readyOnly,
      summary: 'Export attendees as CSV',
      description:
        'The attendees as CSV (RFC 4180, a header row; intervals, phases and tables as `;`-separated lists).',
    },
  },
  { commonResponses: commonErrors },
);

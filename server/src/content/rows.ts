import type {
  clipSchema,
  recordingSchema,
  speakerStatSchema,
  transcriptSchema,
  transcriptSegmentSchema,
} from '@gathercast/contract';
import type { z } from 'zod';
import { iso } from '../db/sql';

export type RecordingView = z.infer<typeof recordingSchema>;
export type ClipView = z.infer<typeof clipSchema>;
export type TranscriptView = z.infer<typeof transcriptSchema>;
export type Segment = z.infer<typeof transcriptSegmentSchema>;
export type SpeakerStat = z.infer<typeof speakerStatSchema>;

export interface RecordingRow {
  id: string;
  event_id: string;
  url: string;
  duration_seconds: number | null;
  created_at: Date;
}

export interface ClipRow {
  id: string;
  recording_id: string;
  event_id: string;
  title: string | null;
  start_seconds: number;
  end_seconds: number;
  status: 'pending' | 'ready';
  created_at: Date;
}

export interface TranscriptRow {
  id: string;
  event_id: string;
  recording_id: string | null;
  segments: Segment[];
  created_at: Date;
}

export interface SummaryRow {
  text: string;
  speakers: SpeakerStat[];
  generated_at: Date;
}

export const recordingColumns = 'id, event_id, url, duration_seconds, created_at';
export const clipColumns =
  'id, recording_id, event_id, title, start_seconds, end_seconds, status, created_at';
export const transcriptColumns = 'id, event_id, recording_id, segments, created_at';
export const summaryColumns = 'text, speakers, generated_at';

// double precision arrives as a number from pg; Number() also covers drivers that send strings.
const num = (v: number | string) => Number(v);

export const toRecording = (r: RecordingRow): RecordingView => ({
  id: r.id,
  eventId: r.event_id,
  url: r.url,
  durationSeconds: r.duration_seconds === null ? null : num(r.duration_seconds),
  createdAt: iso(r.created_at)!,
});

export const toClip = (r: ClipRow): ClipView => ({
  id: r.id,
  recordingId: r.recording_id,
  eventId: r.event_id,
  title: r.title,
  startSeconds: num(r.start_seconds),
  endSeconds: num(r.end_seconds),
  status: r.status,
  createdAt: iso(r.created_at)!,
});

export const toTranscript = (r: TranscriptRow): TranscriptView => ({
  id: r.id,
  eventId: r.event_id,
  recordingId: r.recording_id,
  segments: r.segments,
  createdAt: iso(r.created_at)!,
});

export const toSummary = (r: SummaryRow) => ({
  text: r.text,
  speakers: r.speakers,
  generatedAt: iso(r.generated_at)!,
});

import type { GathercastClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import { eventIn, rejection } from './support/events';
import { createWorkspace, withDb } from './support/fixtures';
import { useServerWithWorkspace } from './support/hooks';
import type { TestServer } from './support/server';

/**
 * Recordings, clips and transcripts as the media pipeline ingests them (docs/content.md):
 * workspace-scoped through their event, clip bounds checked, deletes cascading.
 */

let t: TestServer;
let gc: GathercastClient;
let other: GathercastClient;
useServerWithWorkspace(async (started) => {
  ({ t, gc } = started);
  other = t.client({ apiKey: (await createWorkspace(t.databaseUrl)).apiKey });
});

const segments = [
  { speakerName: 'Ada', startSeconds: 0, endSeconds: 5, text: 'Welcome everyone to the launch review.' },
  { speakerName: 'Bo', startSeconds: 5, endSeconds: 9, text: 'Thanks, the launch went well.' },
];

async function eventWithRecording(durationSeconds?: number) {
  const event = await eventIn(gc, 'ended');
  const recording = await gc.content.createRecording(event.id, {
    url: 'https://media.example.test/r.mp4',
    ...(durationSeconds === undefined ? {} : { durationSeconds }),
  });
  return { event, recording };
}

const countOf = (table: string, eventId: string) =>
  withDb(t.databaseUrl, async (db) => {
    const res = await db.query<{ n: number }>(`select count(*)::int as n from ${table} where event_id = $1`, [
      eventId,
    ]);
    return res.rows[0]!.n;
  });

describe('recordings', () => {
  it('creates a recording of an event and lists it, newest first', async () => {
    const { event, recording } = await eventWithRecording(120);
    expect(recording).toMatchObject({
      eventId: event.id,
      url: 'https://media.example.test/r.mp4',
      durationSeconds: 120,
    });
    const second = await gc.content.createRecording(event.id, { url: 'https://media.example.test/2.mp4' });
    expect(second.durationSeconds).toBeNull();
    const { recordings } = await gc.content.listRecordings(event.id);
    expect(recordings.map((r) => r.id)).toEqual([second.id, recording.id]);
  });

  it('refuses a recording without a valid url with 400 bad_request naming the field', async () => {
    const event = await eventIn(gc, 'ended');
    const err = await rejection(gc.content.createRecording(event.id, { url: 'not a url' }));
    expect(err).toMatchObject({ status: 400, code: 'bad_request' });
    expect(err.errors?.map((e) => e.path)).toContain('body.url');
  });

  it("answers 404 for another workspace's event, recording, list and delete", async () => {
    const { event, recording } = await eventWithRecording();
    for (const call of [
      () => other.content.createRecording(event.id, { url: 'https://x.test/a.mp4' }),
      () => other.content.listRecordings(event.id),
      () => other.content.deleteRecording(recording.id),
      () => other.content.listClips(recording.id),
      () => other.content.createClip(recording.id, { startSeconds: 0, endSeconds: 1 }),
    ]) {
      expect(await rejection(call())).toMatchObject({ status: 404, code: 'not_found' });
    }
    expect((await gc.content.listRecordings(event.id)).recordings).toHaveLength(1);
  });

  it('deleting a recording deletes its clips and keeps its transcripts, unlinked', async () => {
    const { event, recording } = await eventWithRecording(60);
    const clip = await gc.content.createClip(recording.id, { startSeconds: 1, endSeconds: 2 });
    const transcript = await gc.content.createTranscript(event.id, { recordingId: recording.id, segments });
    await gc.content.deleteRecording(recording.id);
    expect(await rejection(gc.content.listClips(recording.id))).toMatchObject({
      status: 404,
    });
    expect(await rejection(gc.content.deleteClip(clip.id))).toMatchObject({
      status: 404,
    });
    const { transcripts } = await gc.content.listTranscripts(event.id);
    expect(transcripts).toEqual([{ ...transcript, recordingId: null }]);
  });
});

describe('clips', () => {
  it('creates a clip that is ready at once, and lists clips oldest first', async () => {
    const { event, recording } = await eventWithRecording(300);
    const a = await gc.content.createClip(recording.id, { title: 'Intro', startSeconds: 0, endSeconds: 30 });
    const b = await gc.content.createClip(recording.id, { startSeconds: 100.5, endSeconds: 300 });
    expect(a).toMatchObject({
      recordingId: recording.id,
      eventId: event.id,
      title: 'Intro',
      startSeconds: 0,
      endSeconds: 30,
      status: 'ready',
    });
    expect(b).toMatchObject({ title: null, startSeconds: 100.5, endSeconds: 300, status: 'ready' });
    expect((await gc.content.listClips(recording.id)).clips.map((c) => c.id)).toEqual([a.id, b.id]);
  });

  it('refuses a clip whose end is not after its start with 400 naming body.endSeconds', async () => {
    const { recording } = await eventWithRecording(300);
    for (const body of [
      { startSeconds: 10, endSeconds: 10 },
      { startSeconds: 20, endSeconds: 10 },
    ]) {
      const err = await rejection(gc.content.createClip(recording.id, body));
      expect(err).toMatchObject({ status: 400, code: 'bad_request' });
      expect(err.errors).toEqual([
        { path: 'body.endSeconds', code: 'invalid_value', message: expect.any(String) },
      ]);
    }
  });

  it("refuses a clip that runs past the recording's known duration, and allows one ending exactly at it", async () => {
    const { recording } = await eventWithRecording(60);
    const err = await rejection(gc.content.createClip(recording.id, { startSeconds: 50, endSeconds: 61 }));
    expect(err).toMatchObject({ status: 400, code: 'bad_request' });
    expect(err.errors?.map((e) => e.path)).toEqual(['body.endSeconds']);
    const late = await rejection(gc.content.createClip(recording.id, { startSeconds: 70, endSeconds: 80 }));
    expect(late.errors?.map((e) => e.path).sort()).toEqual(['body.endSeconds', 'body.startSeconds']);
    await expect(
      gc.content.createClip(recording.id, { startSeconds: 50, endSeconds: 60 }),
    ).resolves.toMatchObject({ status: 'ready' });
  });

  it('allows any non-empty range when the duration is unknown', async () => {
    const { recording } = await eventWithRecording();
    await expect(
      gc.content.createClip(recording.id, { startSeconds: 5000, endSeconds: 9000 }),
    ).resolves.toMatchObject({ endSeconds: 9000 });
  });

  it('deletes a clip; deleting it again, or from another workspace, is 404', async () => {
    const { recording } = await eventWithRecording(60);
    const clip = await gc.content.createClip(recording.id, { startSeconds: 1, endSeconds: 2 });
    expect(await rejection(other.content.deleteClip(clip.id))).toMatchObject({
      status: 404,
      code: 'not_found',
    });
    await gc.content.deleteClip(clip.id);
    expect((await gc.content.listClips(recording.id)).clips).toEqual([]);
    expect(await rejection(gc.content.deleteClip(clip.id))).toMatchObject({
      status: 404,
      code: 'not_found',
    });
  });
});

describe('transcripts', () => {
  it('creates a transcript with its segments and lists it', async () => {
    const { event, recording } = await eventWithRecording(60);
    const transcript = await gc.content.createTranscript(event.id, { recordingId: recording.id, segments });
    expect(transcript).toMatchObject({ eventId: event.id, recordingId: recording.id, segments });
    expect((await gc.content.listTranscripts(event.id)).transcripts).toEqual([transcript]);
  });

  it('refuses a recordingId of another event with 400 naming body.recordingId', async () => {
    const { recording } = await eventWithRecording(60);
    const event = await eventIn(gc, 'ended');
    const err = await rejection(
      gc.content.createTranscript(event.id, { recordingId: recording.id, segments }),
    );
    expect(err).toMatchObject({ status: 400, code: 'bad_request' });
    expect(err.errors?.map((e) => e.path)).toEqual(['body.recordingId']);
    expect(await countOf('transcript', event.id)).toBe(0);
  });

  it('refuses a segment that ends before it starts, and an empty segment list', async () => {
    const event = await eventIn(gc, 'ended');
    const bad = await rejection(
      gc.content.createTranscript(event.id, { segments: [segments[0]!, { ...segments[1]!, endSeconds: 1 }] }),
    );
    expect(bad).toMatchObject({ status: 400, code: 'bad_request' });
    expect(bad.errors?.map((e) => e.path)).toEqual(['body.segments.1.endSeconds']);
    const empty = await rejection(gc.content.createTranscript(event.id, { segments: [] }));
    expect(empty).toMatchObject({ status: 400, code: 'bad_request' });
  });

  it("answers 404 for another workspace's transcript calls", async () => {
    const event = await eventIn(gc, 'ended');
    const transcript = await gc.content.createTranscript(event.id, { segments });
    for (const call of [
      () => other.content.createTranscript(event.id, { segments }),
      () => other.content.listTranscripts(event.id),
      () => other.content.deleteTranscript(transcript.id),
    ]) {
      expect(await rejection(call())).toMatchObject({ status: 404, code: 'not_found' });
    }
  });

  it('deleting a transcript deletes its summary', async () => {
    const event = await eventIn(gc, 'ended');
    const transcript = await gc.content.createTranscript(event.id, { segments });
    expect(await countOf('content_summary', event.id)).toBe(1);
    await gc.content.deleteTranscript(transcript.id);
    expect(await countOf('content_summary', event.id)).toBe(0);
    expect((await gc.content.listTranscripts(event.id)).transcripts).toEqual([]);
  });
});

describe('deleting the event', () => {
  it('deletes its recordings, clips, transcripts and summaries', async () => {
    const { event, recording } = await eventWithRecording(60);
    await gc.content.createClip(recording.id, { startSeconds: 1, endSeconds: 2 });
    await gc.content.createTranscript(event.id, { segments });
    await gc.events.delete(event.id);
    for (const table of ['recording', 'clip', 'transcript', 'content_summary'])
      expect(await countOf(table, event.id)).toBe(0);
    expect(await rejection(gc.content.listClips(recording.id))).toMatchObject({
      status: 404,
    });
  });
});

import type { GathercastClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import { eventIn, rejection } from './support/events';
import { createAccount, createWorkspace, type WorkspaceFixture } from './support/fixtures';
import { useServerWithWorkspace } from './support/hooks';
import type { TestServer } from './support/server';

/**
 * Public recap, content and asset views: gated like the public event view (drafts never; private
 * events only with a session of the owning workspace; 404 otherwise).
 */

let t: TestServer;
let ws: WorkspaceFixture;
let gc: GathercastClient;
let anon: GathercastClient;
useServerWithWorkspace((started) => {
  ({ t, ws, gc, anon } = started);
});

const talk = [
  {
    speakerName: 'Ada',
    userId: 'ada-1',
    startSeconds: 0,
    endSeconds: 10,
    text: 'Welcome to the quarterly roadmap review. The roadmap has three pillars this quarter.',
  },
  {
    speakerName: 'Bo',
    startSeconds: 10,
    endSeconds: 16,
    text: 'The roadmap pillars are search, billing and onboarding.',
  },
  { speakerName: 'Ada', userId: 'ada-1', startSeconds: 16, endSeconds: 20, text: 'Billing ships first.' },
];

/** An event in `status` with two recordings (the second has clips) and a transcript. */
async function eventWithContent(
  status: 'draft' | 'scheduled' | 'ended',
  visibility: 'public' | 'unlisted' | 'private',
) {
  const event = await eventIn(gc, status, [{ modality: 'broadcast' }], { visibility });
  const older = await gc.content.createRecording(event.id, { url: 'https://m.test/old.mp4' });
  const latest = await gc.content.createRecording(event.id, {
    url: 'https://m.test/new.mp4',
    durationSeconds: 20,
  });
  const oldClip = await gc.content.createClip(older.id, { startSeconds: 0, endSeconds: 5 });
  const clip = await gc.content.createClip(latest.id, { title: 'Pillars', startSeconds: 10, endSeconds: 16 });
  const transcript = await gc.content.createTranscript(event.id, { recordingId: latest.id, segments: talk });
  return { event, older, latest, oldClip, clip, transcript };
}

describe('public recap', () => {
  it('shows the latest recording, its clips and the AI summary with speaker stats', async () => {
    const { event, latest, clip } = await eventWithContent('ended', 'public');
    const recap = await anon.public.retrieveRecap(event.id);
    expect(recap.event).toEqual({ id: event.id, title: event.title, scheduledAt: event.scheduledAt });
    expect(recap.recording).toEqual(latest);
    expect(recap.clips).toEqual([clip]);
    expect(recap.summary?.text.length).toBeGreaterThan(0);
    expect(recap.summary?.speakers).toEqual([
      { name: 'Ada', userId: 'ada-1', words: 16, turns: 2, talkSeconds: 14 },
      { name: 'Bo', userId: null, words: 8, turns: 1, talkSeconds: 6 },
    ]);
  });

  it('shows the summary of the latest transcript', async () => {
    const { event } = await eventWithContent('ended', 'public');
    await gc.content.createTranscript(event.id, {
      segments: [
        { speakerName: 'Cy', startSeconds: 0, endSeconds: 3, text: 'A second session about hiring plans.' },
      ],
    });
    const recap = await anon.public.retrieveRecap(event.id);
    expect(recap.summary?.speakers.map((s) => s.name)).toEqual(['Cy']);
    expect(recap.summary?.text).toBe('A second session about hiring plans.');
  });

  it('answers an event without content with nulls and no clips', async () => {
    const event = await eventIn(gc, 'scheduled', [{ modality: 'broadcast' }], { visibility: 'public' });
    expect(await anon.public.retrieveRecap(event.id)).toEqual({
      event: { id: event.id, title: event.title, scheduledAt: null },
      recording: null,
      clips: [],
      summary: null,
    });
  });
});

describe('public content', () => {
  it('lists recordings, every clip, transcript ids, the summary and the cast', async () => {
    const { event, older, latest, oldClip, clip, transcript } = await eventWithContent('ended', 'unlisted');
    const host = await gc.users.upsert({ externalSub: 'host-1', name: 'Hana Host' });
    await gc.memberships.create(event.id, { userId: host.id, role: 'host' });
    const content = await anon.public.retrieveContent(event.id);
    expect(content).toMatchObject({
      event: { id: event.id, title: event.title },
      recordings: [latest, older],
      clips: [oldClip, clip],
      transcripts: [{ id: transcript.id, createdAt: transcript.createdAt }],
      cast: [{ name: 'Hana Host', role: 'host' }],
    });
    expect(content.summary?.speakers).toHaveLength(2);
    // Segments (what each person said) never leave the management API.
    expect(content.transcripts[0]).not.toHaveProperty('segments');
  });
});

describe('public asset', () => {
  it('shows a recording and a clip with their event context', async () => {
    const { event, latest, clip } = await eventWithContent('ended', 'public');
    const context = { id: event.id, title: event.title, scheduledAt: event.scheduledAt };
    expect(await anon.public.retrieveAsset(latest.id)).toEqual({
      kind: 'recording',
      recording: latest,
      clip: null,
      event: context,
    });
    expect(await anon.public.retrieveAsset(clip.id)).toEqual({
      kind: 'clip',
      recording: null,
      clip,
      event: context,
    });
  });

  it('answers 404 for an unknown id, and for a transcript id (not an asset)', async () => {
    const { transcript } = await eventWithContent('ended', 'public');
    for (const id of ['00000000-0000-4000-8000-000000000000', transcript.id]) {
      expect(await rejection(anon.public.retrieveAsset(id))).toMatchObject({
        status: 404,
        code: 'not_found',
      });
    }
  });

  it('answers 404 once the asset is deleted', async () => {
    const { clip } = await eventWithContent('ended', 'public');
    await gc.content.deleteClip(clip.id);
    expect(await rejection(anon.public.retrieveAsset(clip.id))).toMatchObject({
      status: 404,
      code: 'not_found',
    });
  });
});

describe('visibility gating', () => {
  const views = (client: GathercastClient, c: Awaited<ReturnType<typeof eventWithContent>>) => [
    () => client.public.retrieveRecap(c.event.id),
    () => client.public.retrieveContent(c.event.id),
    () => client.public.retrieveAsset(c.latest.id),
    () => client.public.retrieveAsset(c.clip.id),
  ];

  it('hides every view of a draft event, even from the owning workspace', async () => {
    const c = await eventWithContent('draft', 'public');
    for (const client of [anon, t.client({ sessionToken: ws.sessionToken })]) {
      for (const view of views(client, c)) {
        expect(await rejection(view())).toMatchObject({ status: 404, code: 'not_found' });
      }
    }
  });

  it('hides a private event from anonymous callers and from sessions of other workspaces', async () => {
    const c = await eventWithContent('ended', 'private');
    const stranger = await createAccount(t.databaseUrl);
    const otherWs = await createWorkspace(t.databaseUrl);
    for (const client of [
      anon,
      t.client({ sessionToken: stranger.sessionToken }),
      t.client({ sessionToken: otherWs.sessionToken }),
    ]) {
      for (const view of views(client, c)) {
        expect(await rejection(view())).toMatchObject({ status: 404, code: 'not_found' });
      }
    }
  });

  it('shows a private event to a session of the owning workspace', async () => {
    const c = await eventWithContent('ended', 'private');
    const member = t.client({ sessionToken: ws.sessionToken });
    for (const view of views(member, c)) await expect(view()).resolves.toBeTruthy();
  });

  it('answers 404 for an unknown event id', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    expect(await rejection(anon.public.retrieveRecap(id))).toMatchObject({
      status: 404,
      code: 'not_found',
    });
    expect(await rejection(anon.public.retrieveContent(id))).toMatchObject({
      status: 404,
      code: 'not_found',
    });
  });
});

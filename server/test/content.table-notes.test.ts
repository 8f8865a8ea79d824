import { createHash } from 'node:crypto';
import type { GathercastClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import { mailboxOf } from './support/accounts';
import { eventIn, rejection } from './support/events';
import { withDb } from './support/fixtures';
import { useServerWithWorkspace } from './support/hooks';
import type { TestServer } from './support/server';

/**
 * Table notes (docs/content.md): a transcript with breakout-table segments gives each table its
 * notes, and each table member with an email one `gcn_` link that reads only that table.
 */

let t: TestServer;
let gc: GathercastClient;
let anon: GathercastClient;
useServerWithWorkspace((started) => {
  ({ t, gc, anon } = started);
});

let n = 0;
async function person(name: string, withEmail = true) {
  const sub = `${name.toLowerCase()}-${++n}`;
  const email = withEmail ? `${sub}@example.test` : null;
  const user = await gc.users.upsert({ externalSub: sub, name, email });
  return { ...user, sub, email: email ?? '' };
}

/** A breakout event; table 1: Ann, Ben, Eve (no email); table 2: Cal and Dee (by externalSub). */
async function breakoutWithTranscript(visibility: 'public' | 'private' = 'public') {
  const event = await eventIn(gc, 'ended', [{ modality: 'broadcast' }, { modality: 'breakout' }], {
    visibility,
  });
  const [ann, ben, eve, cal, dee] = await Promise.all([
    person('Ann'),
    person('Ben'),
    person('Eve', false),
    person('Cal'),
    person('Dee'),
  ]);
  const t1 = `evt_${event.id}_table_1`;
  const t2 = `evt_${event.id}_table_2`;
  const transcript = await gc.content.createTranscript(event.id, {
    segments: [
      { speakerName: 'Host', startSeconds: 0, endSeconds: 10, text: 'Welcome, please join your tables.' },
      {
        speakerName: 'Ann',
        userId: ann!.id,
        roomId: t1,
        startSeconds: 100,
        endSeconds: 110,
        text: 'Our onboarding flow loses people at signup. What if we removed the password step?',
      },
      {
        speakerName: 'Ben',
        userId: ben!.id,
        roomId: t1,
        startSeconds: 110,
        endSeconds: 130,
        text: 'Onboarding could use magic links. We could also send a welcome email. Signup friction matters most for onboarding.',
      },
      {
        speakerName: 'Eve',
        userId: eve!.id,
        roomId: t1,
        startSeconds: 130,
        endSeconds: 135,
        text: 'Do magic links work on mobile?',
      },
      {
        speakerName: 'Ann',
        userId: ann!.id,
        roomId: t1,
        startSeconds: 135,
        endSeconds: 160,
        text: 'Magic links work fine on mobile.',
      },
      {
        speakerName: 'Cal',
        userId: cal!.sub,
        roomId: t2,
        startSeconds: 100,
        endSeconds: 120,
        text: 'Pricing tiers confuse enterprise buyers. Enterprise pricing needs a calculator.',
      },
      {
        speakerName: 'Dee',
        userId: dee!.sub,
        roomId: t2,
        startSeconds: 120,
        endSeconds: 150,
        text: "Let's publish enterprise pricing openly.",
      },
    ],
  });
  return { event, transcript, ann: ann!, ben: ben!, eve: eve!, cal: cal!, dee: dee! };
}

async function tokenOf(email: string): Promise<{ link: string; token: string }> {
  const emails = await mailboxOf(t, email);
  expect(emails).toHaveLength(1);
  const link = emails[0]!.links[0]!;
  return { link, token: new URL(link).searchParams.get('t')! };
}

const summaryOf = (eventId: string, token: string) => anon.public.retrieveTableSummary(eventId, { t: token });

describe('table notes', () => {
  it('emails each table member with an email one gcn_ link to the table-notes page', async () => {
    const { event, ann, cal } = await breakoutWithTranscript();
    const { link, token } = await tokenOf(ann.email);
    expect(token).toMatch(/^gcn_[A-Za-z0-9_-]{43}$/);
    expect(link).toBe(`${t.url}/events/${event.id}/table-notes?t=${token}`);
    const [email] = await mailboxOf(t, ann.email);
    expect(email!.subject).toContain('Table 1');
    expect((await tokenOf(cal.email)).token).not.toBe(token);
  });

  it("answers the recipient's own table: event, table, recipient, summary, stats and people", async () => {
    const { event, ann, ben, eve } = await breakoutWithTranscript();
    const notes = await summaryOf(event.id, (await tokenOf(ann.email)).token);
    expect(notes).toMatchObject({
      event: { id: event.id, title: event.title, scheduledAt: event.scheduledAt },
      table: { roomId: `evt_${event.id}_table_1`, number: 1, label: 'Table 1' },
      recipientUserId: ann.id,
      recipientName: 'Ann',
      stats: { totalWords: 44, promptsCovered: 0, promptsTotal: 0, lifetimeSeconds: 60, headcount: 3 },
      generatedAt: expect.any(String),
    });
    expect(notes.summary.perQuestion).toEqual([]);
    expect(notes.summary.tldr.length).toBeGreaterThan(0);
    expect(notes.summary.themes.map((th) => th.title)).toEqual(['Links', 'Magic', 'Onboarding']); // all said 3 times: ties alphabetical
    expect(notes.summary.ideas).toEqual(['We could also send a welcome email.']);
    expect(notes.summary.questions).toEqual([
      'What if we removed the password step?',
      'Do magic links work on mobile?',
    ]);
    expect(notes.people.map((p) => [p.userId, p.name, p.words, p.turns])).toEqual([
      [ann.id, 'Ann', 20, 2],
      [ben.id, 'Ben', 18, 1],
      [eve.id, 'Eve', 6, 1],
    ]);
  });

  it('awards the documented badges from what each person said', async () => {
    const { event, ann, ben, eve } = await breakoutWithTranscript();
    const notes = await summaryOf(event.id, (await tokenOf(ben.email)).token);
    const badges = Object.fromEntries(
      notes.people.map((p) => [p.userId, p.badges.map((b) => `${b.id}:${b.tier}`)]),
    );
    expect(badges).toEqual({
      [ann.id]: ['icebreaker:1', 'top_voice:1', 'curious_mind:1'],
      [ben.id]: ['idea_sparker:1'],
      [eve.id]: ['curious_mind:1'],
    });
    for (const b of notes.people.flatMap((p) => p.badges)) {
      expect(b).toMatchObject({
        name: expect.any(String),
        description: expect.any(String),
        icon: expect.any(String),
      });
    }
  });

  it("never shows another table's content: two tables, each token reads only its own", async () => {
    const { event, ann, cal, dee } = await breakoutWithTranscript();
    const one = await summaryOf(event.id, (await tokenOf(ann.email)).token);
    const two = await summaryOf(event.id, (await tokenOf(cal.email)).token);
    expect(two.table).toMatchObject({ number: 2, roomId: `evt_${event.id}_table_2` });
    expect(two.recipientUserId).toBe(cal.id);
    expect(two.people.map((p) => p.userId).sort()).toEqual([cal.id, dee.id].sort());
    const oneText = JSON.stringify(one);
    const twoText = JSON.stringify(two);
    for (const word of ['pricing', 'Pricing', 'enterprise', cal.id, dee.id])
      expect(oneText).not.toContain(word);
    for (const word of ['onboarding', 'Onboarding', 'magic', ann.id]) expect(twoText).not.toContain(word);
    // Nothing of either table in the public event summary.
    const recap = await anon.public.retrieveRecap(event.id);
    expect(recap.summary?.text).toBe('Welcome, please join your tables.');
  });

  it('sends nothing to a member without an email and nothing for the non-table segments', async () => {
    const { event } = await breakoutWithTranscript();
    const count = await withDb(t.databaseUrl, async (db) => {
      const res = await db.query<{ n: number }>(
        'select count(*)::int as n from table_notes_token where event_id = $1',
        [event.id],
      );
      return res.rows[0]!.n;
    });
    expect(count).toBe(4);
  });

  it('stores only the SHA-256 of each token, valid for 90 days, and never logs it', async () => {
    const { event, ann } = await breakoutWithTranscript();
    const { token } = await tokenOf(ann.email);
    const rows = await withDb(
      t.databaseUrl,
      async (db) =>
        (
          await db.query(
            'select token_hash, expires_at, created_at from table_notes_token where event_id = $1',
            [event.id],
          )
        ).rows,
    );
    expect(rows.map((r) => r.token_hash)).toContain(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(token);
    await summaryOf(event.id, token);
    // Neither the ingest nor the read logs the link's secret.
    expect(t.logText()).not.toContain(token.slice(4));
    const days =
      (new Date(rows[0].expires_at).getTime() - new Date(rows[0].created_at).getTime()) / 86_400_000;
    expect(Math.round(days)).toBe(90);
  });

  it('answers 404 not_found for a token used with another event id, an unknown, malformed or expired token', async () => {
    const { event, ann } = await breakoutWithTranscript();
    const { token } = await tokenOf(ann.email);
    const otherEvent = await eventIn(gc, 'ended', [{ modality: 'breakout' }], { visibility: 'public' });
    const unknown = `gcn_${'A'.repeat(43)}`;
    for (const [id, tk] of [
      [otherEvent.id, token],
      [event.id, unknown],
      [event.id, token.slice(4)],
      [event.id, `${token}x`],
    ] as const) {
      expect(await rejection(summaryOf(id, tk))).toMatchObject({ status: 404, code: 'not_found' });
    }
    await withDb(t.databaseUrl, (db) =>
      db.query(`update table_notes_token set expires_at = now() - interval '1 second' where event_id = $1`, [
        event.id,
      ]),
    );
    expect(await rejection(summaryOf(event.id, token))).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('works for a private event without any session (the token is the credential)', async () => {
    const { event, dee } = await breakoutWithTranscript('private');
    expect(await rejection(anon.public.retrieveRecap(event.id))).toMatchObject({ status: 404 });
    await expect(summaryOf(event.id, (await tokenOf(dee.email)).token)).resolves.toMatchObject({
      recipientUserId: dee.id,
    });
  });

  it('stops working once the transcript or the event is deleted', async () => {
    const a = await breakoutWithTranscript();
    const tokenA = (await tokenOf(a.ann.email)).token;
    await gc.content.deleteTranscript(a.transcript.id);
    expect(await rejection(summaryOf(a.event.id, tokenA))).toMatchObject({ status: 404, code: 'not_found' });
    const b = await breakoutWithTranscript();
    const tokenB = (await tokenOf(b.cal.email)).token;
    await gc.events.delete(b.event.id);
    expect(await rejection(summaryOf(b.event.id, tokenB))).toMatchObject({ status: 404, code: 'not_found' });
  });

  it('requires t: a missing or empty t is 400 bad_request', async () => {
    const { event } = await breakoutWithTranscript();
    const res = await fetch(`${t.url}/v1/public/events/${event.id}/table-summary?t=`);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe('bad_request');
  });

  it('covers the breakout prompts when the phase config carries them (perQuestion, promptsCovered)', async () => {
    const event = await eventIn(gc, 'ended', [{ modality: 'breakout' }], { visibility: 'public' });
    // The breakout config schema has no prompts field today; a stored one is still honoured.
    await withDb(t.databaseUrl, (db) =>
      db.query(
        `update phase set config = config || '{"prompts":["How do we price enterprise plans?","Who owns hiring?"]}'::jsonb where event_id = $1`,
        [event.id],
      ),
    );
    const kim = await person('Kim');
    await gc.content.createTranscript(event.id, {
      segments: [
        {
          userId: kim.id,
          roomId: `evt_${event.id}_table_3`,
          startSeconds: 0,
          endSeconds: 9,
          text: 'Enterprise plans should price per seat. Lunch was great.',
        },
      ],
    });
    const notes = await summaryOf(event.id, (await tokenOf(kim.email)).token);
    expect(notes.table).toMatchObject({ number: 3, label: 'Table 3' });
    expect(notes.summary.perQuestion).toEqual([
      {
        ordinal: 1,
        question: 'How do we price enterprise plans?',
        discussed: true,
        summary: 'Enterprise plans should price per seat.',
      },
      { ordinal: 2, question: 'Who owns hiring?', discussed: false, summary: '' },
    ]);
    expect(notes.stats).toMatchObject({ promptsCovered: 1, promptsTotal: 2, headcount: 1 });
    expect(notes.people).toEqual([
      {
        userId: kim.id,
        name: 'Kim',
        words: 9,
        turns: 1,
        badges: [expect.objectContaining({ id: 'icebreaker' })],
      },
    ]);
  });

  it('ingests a long transcript (3000 segments over 10 tables) in one call', async () => {
    const event = await eventIn(gc, 'ended', [{ modality: 'breakout' }], { visibility: 'public' });
    const segments = Array.from({ length: 3000 }, (_, i) => ({
      speakerName: `Speaker ${i % 7}`,
      userId: `sub-${i % 7}`,
      roomId: i % 3 === 0 ? null : `evt_${event.id}_table_${(i % 10) + 1}`,
      startSeconds: i * 2,
      endSeconds: i * 2 + 2,
      text: `Point ${i} about roadmap planning and budget reviews? We could ship item ${i}.`,
    }));
    const started = Date.now();
    const transcript = await gc.content.createTranscript(event.id, { segments });
    expect(transcript.segments).toHaveLength(3000);
    expect(Date.now() - started).toBeLessThan(10_000);
    const tables = await withDb(t.databaseUrl, async (db) =>
      (
        await db.query('select table_number from table_notes where event_id = $1 order by 1', [event.id])
      ).rows.map((r) => r.table_number),
    );
    expect(tables).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });
});

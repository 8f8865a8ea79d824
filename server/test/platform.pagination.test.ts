import type { GathercastClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import { apiKeyOf, failure, type SignedUp, signUp } from './support/accounts';
import { createWorkspace, withDb } from './support/fixtures';
import { useTestServer } from './support/hooks';
import { newPartner } from './support/partner';
import type { TestServer } from './support/server';

/**
 * Every list of the API pages the same way: `cursor` and `limit` in, `{<items>, nextCursor}` out, a
 * stable keyset order, and the SDK's `for await` walks every page. Each list below gets more items
 * than the page size; walking it two by two must give every item exactly once, in the list's order.
 */
describe('every list is a cursor list', () => {
  const pageSize = 2;
  const count = 5;
  let t: TestServer;
  let owner: SignedUp;
  let gc: GathercastClient;
  let eventId: string;
  let recordingId: string;

  /** Ids in the order the list answers them: one unpaged read (everything fits in 100). */
  type Page = { nextCursor: string | null } & Record<string, unknown>;
  const idsOf = (page: Page, key: string) => (page[key] as { id: string }[]).map((item) => item.id);

  /** What each list holds after the setup, as `[name, items key, one page, all items two by two]`. */
  type Walk = AsyncIterable<{ id: string }>;
  let lists: [string, string, () => Promise<Page>, () => Walk, string[]][];

  useTestServer({}, async (started) => {
    t = started;
    owner = await signUp(t, 'pager');
    const ws = owner.workspaceId;
    gc = t.client({ apiKey: await apiKeyOf(owner) });
    const times = Array.from({ length: count }, (_, i) => i);
    const inOrder = async <T>(make: (i: number) => Promise<T>) => {
      const made: T[] = [];
      for (const i of times) made.push(await make(i));
      return made;
    };
    const ids = (items: { id: string }[]) => items.map((item) => item.id);

    const event = await gc.events.create({ type: 'webinar', title: 'Paged' });
    eventId = event.id;
    const recording = await gc.content.createRecording(eventId, {
      url: 'https://cdn.example.test/r.mp4',
      durationSeconds: 600,
    });
    recordingId = recording.id;

    const users = await inOrder((i) => gc.users.upsert({ externalSub: `pager-${i}`, name: `User ${i}` }));
    const memberships = await inOrder((i) =>
      gc.memberships.create(eventId, { userId: users[i]!.id, role: 'workspace_admin' }),
    );
    const workspaces = await inOrder((i) => owner.client.workspaces.create({ name: `Paged ${i}` }));
    const apiKeys = await inOrder((i) => gc.apiKeys.create(ws, { name: `key ${i}` }));
    const invites = await inOrder(() => gc.invites.create(ws, { kind: 'workspace' }));
    const { publicKeyPem } = await newPartner();
    const integrations = await inOrder((i) =>
      gc.guestIntegrations.create(ws, { issuer: `https://pager-${i}.example.test`, publicKeyPem }),
    );
    const webhooks = await inOrder((i) => gc.webhooks.create({ url: `https://hooks.example.test/${i}` }));
    const recordings = [
      recording,
      ...(await inOrder((i) =>
        gc.content.createRecording(eventId, { url: `https://cdn.example.test/${i}.mp4` }),
      )),
    ];
    const transcripts = await inOrder((i) =>
      gc.content.createTranscript(eventId, {
        segments: [{ text: `Segment ${i}`, startSeconds: 0, endSeconds: 1 }],
      }),
    );
    const clips = await inOrder((i) =>
      gc.content.createClip(recordingId, { startSeconds: i, endSeconds: i + 1 }),
    );
    // Members join and questions are asked elsewhere (invites, the live room): written here directly,
    // one second apart so their order is the order written.
    const joiners = await inOrder(() => createWorkspace(t.databaseUrl));
    const { members, questions } = await withDb(t.databaseUrl, async (db) => {
      const members: string[] = [];
      const questions: string[] = [];
      for (const i of times) {
        const m = await db.query<{ id: string }>(
          `insert into workspace_member (id, workspace_id, account_id, role, created_at)
           values (gen_random_uuid(), $1, $2, 'member', now() + make_interval(secs => $3)) returning id`,
          [ws, joiners[i]!.accountId, i + 1],
        );
        members.push(m.rows[0]!.id);
        const q = await db.query<{ id: string }>(
          `insert into question (id, event_id, text, author_name, anonymous, created_at)
           values (gen_random_uuid(), $1, $2, 'Asker', false, now() + make_interval(secs => $3)) returning id`,
          [eventId, `Question ${i}`, i + 1],
        );
        questions.push(q.rows[0]!.id);
      }
      return { members, questions };
    });

    const newestFirst = (items: { id: string }[]) => ids(items).reverse();
    lists = [
      ['users', 'users', () => gc.users.list(), () => gc.users.list({ limit: pageSize }), ids(users)],
      [
        'memberships',
        'memberships',
        () => gc.memberships.list(eventId),
        () => gc.memberships.list(eventId, { limit: pageSize }),
        ids(memberships),
      ],
      [
        'questions',
        'questions',
        () => gc.questions.list(eventId),
        () => gc.questions.list(eventId, { limit: pageSize }),
        questions,
      ],
      [
        'workspaces',
        'workspaces',
        () => owner.client.workspaces.list(),
        () => owner.client.workspaces.list({ limit: pageSize }),
        ids(workspaces),
      ],
      [
        'members',
        'members',
        () => gc.members.list(ws),
        () => gc.members.list(ws, { limit: pageSize }),
        members,
      ],
      [
        'API keys',
        'apiKeys',
        () => gc.apiKeys.list(ws),
        () => gc.apiKeys.list(ws, { limit: pageSize }),
        newestFirst(apiKeys),
      ],
      [
        'invites',
        'invites',
        () => gc.invites.list(ws),
        () => gc.invites.list(ws, { limit: pageSize }),
        newestFirst(invites),
      ],
      [
        'guest integrations',
        'integrations',
        () => gc.guestIntegrations.list(ws),
        () => gc.guestIntegrations.list(ws, { limit: pageSize }),
        ids(integrations),
      ],
      [
        'webhook endpoints',
        'webhooks',
        () => gc.webhooks.list(),
        () => gc.webhooks.list({ limit: pageSize }),
        ids(webhooks),
      ],
      [
        'recordings',
        'recordings',
        () => gc.content.listRecordings(eventId),
        () => gc.content.listRecordings(eventId, { limit: pageSize }),
        newestFirst(recordings),
      ],
      [
        'transcripts',
        'transcripts',
        () => gc.content.listTranscripts(eventId),
        () => gc.content.listTranscripts(eventId, { limit: pageSize }),
        newestFirst(transcripts),
      ],
      [
        'clips',
        'clips',
        () => gc.content.listClips(recordingId),
        () => gc.content.listClips(recordingId, { limit: pageSize }),
        ids(clips),
      ],
    ];
  });

  it('walks every list two by two with the SDK’s for await: each item once, in the list’s order', async () => {
    for (const [name, key, whole, walk, made] of lists) {
      const all = await whole();
      expect(all.nextCursor, name).toBeNull();
      const expected = idsOf(all, key);
      expect(expected.length, name).toBeGreaterThan(pageSize);
      // The items made for this list appear in its order (others, such as the signup's own key, may be there too).
      expect(
        expected.filter((id) => made.includes(id)),
        name,
      ).toEqual(made);

      const walked: string[] = [];
      for await (const item of walk()) walked.push(item.id);
      expect(walked, name).toEqual(expected);
    }
  });

  it('answers a page of `limit` items with the cursor of the next, and null on the last page', async () => {
    const first = await gc.users.list({ limit: pageSize });
    expect(first.users).toHaveLength(pageSize);
    expect(first.nextCursor).toEqual(expect.any(String));
    const last = await gc.users.list({ limit: count });
    expect(last).toEqual({ users: expect.any(Array), nextCursor: null });
  });

  it('keeps later pages stable when an item is added while a client pages', async () => {
    const page1 = await gc.content.listClips(recordingId, { limit: pageSize });
    const added = await gc.content.createClip(recordingId, { startSeconds: 50, endSeconds: 51 });
    const rest: string[] = [];
    for await (const clip of gc.content.listClips(recordingId, {
      limit: pageSize,
      cursor: page1.nextCursor!,
    }))
      rest.push(clip.id);
    const seen = [...page1.clips.map((c) => c.id), ...rest];
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.at(-1)).toBe(added.id);
  });

  it('refuses a cursor the list did not issue with 400 bad_request on query.cursor', async () => {
    // The shape of an events cursor (sort, time, id): another list's.
    const eventsCursor = Buffer.from(`-createdAt|2026-11-01T10:00:00.000000Z|${eventId}`).toString(
      'base64url',
    );
    for (const cursor of ['not-a-cursor', Buffer.from('1|2').toString('base64url'), eventsCursor]) {
      const refused = await failure(gc.members.list(owner.workspaceId, { cursor }));
      expect(refused).toMatchObject({ status: 400, code: 'bad_request' });
      expect(refused.body.errors).toEqual([expect.objectContaining({ path: 'query.cursor' })]);
    }
  });

  it('refuses a limit outside 1..100 with 400 bad_request', async () => {
    for (const limit of [0, 101]) {
      const refused = await failure(gc.questions.list(eventId, { limit }));
      expect(refused).toMatchObject({ status: 400, code: 'bad_request' });
    }
  });
});

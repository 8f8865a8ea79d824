import type { GathercastClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import { eventIn, rejection } from './support/events';
import { useServerWithWorkspace } from './support/hooks';
import { LiveClient } from './support/live';
import type { TestServer } from './support/server';

/*
 * What a backend reads back about the room it runs: the join links it made for an event (a page at a
 * time, never their URLs again), and the chat log after a moderator deleted a line.
 */
let t: TestServer;
let gc: GathercastClient;
let anon: GathercastClient;
useServerWithWorkspace((started) => {
  ({ t, gc, anon } = started);
});

const broadcast = () => eventIn(gc, 'live', [{ modality: 'broadcast', featureSet: ['chat'] }]);

describe('listing an event’s join links', () => {
  it('pages through every link oldest first, without their URLs, and filters by status', async () => {
    const event = await broadcast();
    const made = [];
    for (let i = 0; i < 5; i++) {
      made.push(
        await gc.live.joinLinks.create(event.id, { identity: { id: `guest-${i}`, name: `Guest ${i}` } }),
      );
    }
    await gc.live.joinLinks.delete(event.id, made[1]!.id);

    const first = await gc.live.joinLinks.list(event.id, { limit: 2 });
    expect(first.joinLinks.map((l) => l.id)).toEqual([made[0]!.id, made[1]!.id]);
    expect(first.nextCursor).not.toBeNull();
    expect(first.joinLinks[0]).toMatchObject({
      eventId: event.id,
      participantId: 'ext:guest-0',
      name: 'Guest 0',
      userId: null,
      registrationId: null,
      role: null,
      revokedAt: null,
    });
    expect(first.joinLinks[0]).not.toHaveProperty('joinUrl');
    expect(first.joinLinks[1]!.revokedAt).not.toBeNull();

    // The SDK walks every page.
    const all = [];
    for await (const link of gc.live.joinLinks.list(event.id, { limit: 2 })) all.push(link.id);
    expect(all).toEqual(made.map((l) => l.id));

    const active = await gc.live.joinLinks.list(event.id, { status: 'active' });
    expect(active.joinLinks.map((l) => l.id)).toEqual(made.filter((_, i) => i !== 1).map((l) => l.id));
    const revoked = await gc.live.joinLinks.list(event.id, { status: 'revoked' });
    expect(revoked.joinLinks.map((l) => l.id)).toEqual([made[1]!.id]);
  });

  it('refuses a cursor it did not return, another workspace’s event and a caller without credentials', async () => {
    const event = await broadcast();
    const bad = await rejection(gc.live.joinLinks.list(event.id, { cursor: 'bm90LWEtY3Vyc29y' }));
    expect([bad.status, bad.code]).toEqual([400, 'bad_request']);
    const other = await rejection(gc.live.joinLinks.list(crypto.randomUUID()));
    expect([other.status, other.code]).toEqual([404, 'not_found']);
    const none = await rejection(anon.live.joinLinks.list(event.id));
    expect([none.status, none.code]).toEqual([401, 'unauthorized']);
  });
});

describe('deleting a chat line', () => {
  it('removes it from the durable chat log read over REST', async () => {
    const event = await broadcast();
    const minted = await gc.live.tokens.create(event.id, {
      identity: { id: 'host-1', name: 'Hana' },
      role: 'host',
    });
    const host = await LiveClient.join(t.server, minted.token);
    try {
      host.send({ type: 'chat.send', text: 'keep me' });
      const kept = await host.next('chat.message');
      host.send({ type: 'chat.send', text: 'delete me' });
      const deleted = await host.next('chat.message');
      expect((await gc.chat.list(event.id)).messages.map((m) => m.text)).toEqual(['keep me', 'delete me']);

      await gc.live.room.deleteChatMessage(event.id, deleted.id!);
      await host.next('chat.deleted');
      const log = await gc.chat.list(event.id);
      expect(log.messages.map((m) => m.id)).toEqual([kept.id]);
    } finally {
      await host.close();
    }
  });
});

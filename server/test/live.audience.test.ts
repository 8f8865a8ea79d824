import type { GathercastClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import { eventIn } from './support/events';
import { useServerWithWorkspace } from './support/hooks';
import { LiveClient, tokenFor } from './support/live';
import type { TestServer } from './support/server';

let t: TestServer;
let gc: GathercastClient;
useServerWithWorkspace((started) => {
  ({ t, gc } = started);
});

const join = async (eventId: string, role: 'viewer' | 'host' | 'speaker' = 'viewer') =>
  LiveClient.join(
    t.server,
    await tokenFor(t.server, eventId, role === 'viewer' ? { role, anonymous: true } : { role }),
  );

describe('live gateway: the audience of a broadcast', () => {
  it('sends a viewer an audience message right after the welcome and the counts as they change, never presence', async () => {
    const event = await eventIn(gc, 'live');
    const first = await join(event.id);
    const counted = await first.next('audience');
    expect(first.messages[0]!.type).toBe('welcome');
    expect(counted.byRole).toEqual({
      host: 0,
      speaker: 0,
      participant: 0,
      viewer: expect.any(Number),
      workspace_admin: 0,
    });
    const others = [await join(event.id), await join(event.id), await join(event.id, 'speaker')];
    const settled = await first.next(
      'audience',
      (m) => m.byRole.viewer === 3 && m.byRole.speaker === 1,
      8000,
    );
    expect(settled.total).toBe(4);
    expect(first.all('presence.joined')).toEqual([]);
    await others[0]!.close();
    await first.next('audience', (m) => m.byRole.viewer === 2, 8000);
    expect([...first.all('presence.joined'), ...first.all('presence.left')]).toEqual([]);
    for (const c of [first, ...others.slice(1)]) await c.close();
  });

  it('announces the cast and moderators one by one to the room, but not the viewers', async () => {
    const event = await eventIn(gc, 'live');
    const host = await join(event.id, 'host');
    const aViewer = await join(event.id);
    const speaker = await join(event.id, 'speaker');
    const speakerId = speaker.all('welcome')[0]!.identity.participantId;
    await host.next('presence.joined', (m) => m.participant.participantId === speakerId);
    await host.next('audience', (m) => m.byRole.viewer === 1 && m.byRole.speaker === 1, 8000);
    const viewerId = aViewer.all('welcome')[0]!.identity.participantId;
    expect(host.all('presence.joined').map((m) => m.participant.participantId)).not.toContain(viewerId);
    await speaker.close();
    await host.next('presence.left', (m) => m.participantId === speakerId);
    await aViewer.next('audience', (m) => m.byRole.speaker === 0 && m.byRole.host === 1, 8000);
    expect(aViewer.all('presence.joined')).toEqual([]);
    expect(aViewer.all('presence.left')).toEqual([]);
    await host.close();
    await aViewer.close();
  });

  it('lets a moderator page through the viewers with a cursor', async () => {
    const event = await eventIn(gc, 'live');
    const host = await join(event.id, 'host');
    const viewers = [];
    for (let i = 0; i < 5; i++) viewers.push(await join(event.id));
    await host.next('audience', (m) => m.byRole.viewer === 5, 8000);
    const seen: string[] = [];
    let cursor: string | undefined;
    const pages: number[] = [];
    for (let i = 0; i < 5; i++) {
      host.send({ type: 'audience.list', limit: 2, requestId: `p${i}`, ...(cursor ? { cursor } : {}) });
      const page = await host.next('audience.page', (m) => m.requestId === `p${i}`);
      pages.push(page.participants.length);
      seen.push(...page.participants.map((p) => p.participantId));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    expect(pages).toEqual([2, 2, 2]);
    const viewerIds = viewers.map((v) => v.all('welcome')[0]!.identity.participantId);
    const hostId = host.all('welcome')[0]!.identity.participantId;
    expect([...seen].sort()).toEqual([...viewerIds, hostId].sort());
    expect(seen).toEqual([...seen].sort());
    for (const c of [host, ...viewers]) await c.close();
  });

  it('refuses audience.list to anyone but moderators', async () => {
    const event = await eventIn(gc, 'live');
    const v = await join(event.id);
    v.send({ type: 'audience.list' });
    expect(await v.next('error')).toMatchObject({ code: 'forbidden' });
    await v.close();
  });
});

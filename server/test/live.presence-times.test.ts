import type { GathercastClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import { eventIn } from './support/events';
import { withDb } from './support/fixtures';
import { useServerWithWorkspace } from './support/hooks';
import { eventually, LiveClient, tokenFor } from './support/live';
import type { TestServer } from './support/server';

/*
 * Presence facts (participant.joined, participant.left: what attendance reports are computed from)
 * carry the moment a person came and went: the socket's open, a lobby waiter's admission, the socket's
 * close. Not the moment the process got to writing them down, which a join storm's queued groups or a
 * lost socket's resume hold put seconds later.
 */
const windowMs = 2000;
let t: TestServer;
let gc: GathercastClient;

useServerWithWorkspace({ LIVE_RESUME_WINDOW_MS: String(windowMs) }, (started) => {
  ({ t, gc } = started);
});

/** When the participant's presence fact of `type` says it happened (ms), once it is recorded. */
async function factTime(eventId: string, type: string, participantId: string): Promise<number> {
  const read = () =>
    withDb(t.databaseUrl, (db) =>
      db.query<{ occurred_at: Date }>(
        `select occurred_at from domain_event
          where event_id = $1 and type = $2 and payload->>'participantId' = $3`,
        [eventId, type, participantId],
      ),
    );
  const { rows } = await eventually(read, (r) => r.rows.length > 0);
  expect(rows, `${type} of ${participantId}`).toHaveLength(1);
  return rows[0]!.occurred_at.getTime();
}

describe('presence facts', () => {
  it('stamp participant.joined with the socket’s open, between the upgrade and the welcome', async () => {
    const event = await eventIn(gc, 'live', [{ modality: 'broadcast', featureSet: ['chat'] }]);
    const token = await tokenFor(t.server, event.id, { role: 'viewer' });
    const before = Date.now();
    const viewer = await LiveClient.join(t.server, token);
    const welcomed = Date.now();
    const participantId = viewer.all('welcome')[0]!.identity.participantId;
    const joined = await factTime(event.id, 'participant.joined', participantId);
    expect(joined).toBeGreaterThanOrEqual(before);
    expect(joined).toBeLessThanOrEqual(welcomed);
    viewer.close();
  });

  it('stamp participant.left with the moment a lost socket dropped, not the end of its resume hold', async () => {
    const event = await eventIn(gc, 'live', [{ modality: 'broadcast', featureSet: ['chat'] }]);
    const viewer = await LiveClient.join(t.server, await tokenFor(t.server, event.id, { role: 'viewer' }));
    const participantId = viewer.all('welcome')[0]!.identity.participantId;
    await factTime(event.id, 'participant.joined', participantId);
    // No close frame: the leave is held for the resume window before participant.left is written.
    const droppedAt = Date.now();
    viewer.ws.terminate();
    const left = await factTime(event.id, 'participant.left', participantId);
    expect(Date.now() - droppedAt).toBeGreaterThanOrEqual(windowMs);
    expect(left).toBeGreaterThanOrEqual(droppedAt - 50);
    expect(left - droppedAt).toBeLessThan(windowMs / 2);
  });

  it('stamp a lobby waiter’s participant.joined with the host’s admission, not with the socket’s open', async () => {
    const event = await eventIn(gc, 'live', [{ modality: 'meeting', featureSet: ['chat'] }]);
    const host = await LiveClient.join(t.server, await tokenFor(t.server, event.id, { role: 'host' }));
    const user = await gc.users.upsert({ externalSub: `walk-in-${event.id}`, name: 'Wanda' });
    const token = await tokenFor(t.server, event.id, {
      role: 'participant',
      userId: user.id,
      via: 'account',
    });
    const waiter = await LiveClient.join(t.server, token);
    expect(waiter.all('welcome')[0]).toMatchObject({ lobby: true });
    await host.next('lobby.waiting');
    const admittedAt = Date.now();
    host.send({ type: 'lobby.admit', participantId: `user:${user.id}` });
    await waiter.next('lobby.admitted');
    const joined = await factTime(event.id, 'participant.joined', `user:${user.id}`);
    expect(joined).toBeGreaterThanOrEqual(admittedAt);
    waiter.close();
    host.close();
  });
});

import { createClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import type { RunningServer } from '../src/server';
import { createTestDatabase } from './support/database';
import { eventIn } from './support/events';
import { createWorkspace } from './support/fixtures';
import { LiveClient, startReplica, tokenFor } from './support/live';
import { ChildServer } from './support/process';
import { testRedisUrl } from './support/redis';

/*
 * Slow mode holds for a sender, not for a socket or a process: one anonymous viewer holds a socket on
 * each of two server processes (one of them a separate OS process, so the two share nothing but the
 * deployment's store), and their second line within the gap is refused on the other process, with
 * the same refusal as on one process. On PostgreSQL and on Redis.
 */
describe.each([
  ['PostgreSQL', { REDIS_URL: '' }],
  ['Redis', { REDIS_URL: testRedisUrl() }],
])('slow mode across processes (%s)', (_backend, env) => {
  it('refuses a second line within the gap from the same sender on the other process', async () => {
    const databaseUrl = await createTestDatabase();
    const b: RunningServer = await startReplica(databaseUrl, env);
    const a = await ChildServer.start(databaseUrl, env);
    try {
      const gc = createClient({ baseUrl: b.url, apiKey: (await createWorkspace(databaseUrl)).apiKey });
      const event = await eventIn(gc, 'live', [
        { modality: 'broadcast', featureSet: ['chat'], config: { chat: { slowModeSeconds: 60 } } },
      ]);
      const host = await LiveClient.join(b, await tokenFor(b, event.id, { role: 'host' }));
      const token = await tokenFor(b, event.id, { role: 'viewer', anonymous: true });
      const onA = await LiveClient.join(a as unknown as RunningServer, token);
      const onB = await LiveClient.join(b, token);

      onA.send({ type: 'chat.send', text: 'one' });
      await host.next('chat.message', (m) => m.text === 'one');
      onB.send({ type: 'chat.send', text: 'two' });
      expect(await onB.next('error')).toMatchObject({
        code: 'rate_limited',
        detail: expect.stringMatching(/^Slow mode: one line every 60 s; wait (59|60) s$/),
      });
      for (const c of [onA, onB, host]) await c.close();
    } finally {
      await a.kill('SIGTERM');
      await b.close();
    }
  });
});

import { randomUUID } from 'node:crypto';
import type { GathercastClient } from '@gathercast/sdk';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import type { GatewayClaims } from '../src/gateway/tokens';
import { eventIn } from './support/events';
import { withDb } from './support/fixtures';
import { useServerWithWorkspace } from './support/hooks';
import { LiveClient, refusal, tokenFor } from './support/live';
import type { TestServer } from './support/server';

/*
 * The live gateway's limits (docs/live-gateway.md): open sockets per participant and per client
 * address, WebSocket pings, and what an unknown signing key costs. Each refusal is a close code (or an
 * HTTP answer before the handshake), logged and counted in /metrics.
 */
let t: TestServer;
let gc: GathercastClient;
useServerWithWorkspace(
  {
    LIVE_MAX_SOCKETS_PER_PARTICIPANT: '2',
    LIVE_MAX_SOCKETS_PER_ADDRESS: '4',
    // The test's clients are on the machine itself: count them like remote ones.
    CAP_LOOPBACK_ADDRESSES: 'true',
  },
  (started) => {
    ({ t, gc } = started);
  },
);

async function refusals(reason: string): Promise<number> {
  const res = await fetch(`${t.url}/metrics`, { headers: { 'x-platform-key': 'test-platform-key' } });
  const line = (await res.text())
    .split('\n')
    .find((l) => l.startsWith(`gathercast_live_refusals_total{reason="${reason}"} `));
  return line ? Number(line.split(' ')[1]) : 0;
}

const broadcast = () => eventIn(gc, 'live', [{ modality: 'broadcast', featureSet: ['chat'] }]);
const anonymous = (eventId: string) => tokenFor(t.server, eventId, { role: 'viewer', anonymous: true });

describe('live socket caps', () => {
  it('refuses a socket over the per-participant cap with 4029 and too_many_connections, and counts it', async () => {
    const event = await broadcast();
    const token = await anonymous(event.id);
    const before = await refusals('participant_cap');
    const open = [await LiveClient.join(t.server, token), await LiveClient.join(t.server, token)];
    const over = await LiveClient.connect(t.server, token);
    expect(await over.closed).toBe(4029);
    expect(over.all('error')).toMatchObject([{ code: 'too_many_connections' }]);
    expect(over.all('welcome')).toEqual([]);
    expect(await refusals('participant_cap')).toBe(before + 1);
    expect(t.logs().some((l) => l.msg === 'live socket refused over a cap')).toBe(true);

    // A closed socket gives its place back.
    await open[0]!.close();
    const next = await LiveClient.join(t.server, token);
    for (const c of [open[1]!, next]) await c.close();
  });

  it('refuses a socket over the per-address cap, whatever its token', async () => {
    const event = await broadcast();
    const before = await refusals('address_cap');
    const open: LiveClient[] = [];
    for (let i = 0; i < 4; i++) open.push(await LiveClient.join(t.server, await anonymous(event.id)));
    const over = await LiveClient.connect(t.server, await anonymous(event.id));
    expect(await over.closed).toBe(4029);
    expect(await refusals('address_cap')).toBe(before + 1);
    for (const c of open) await c.close();
  });
});

describe('WebSocket pings', () => {
  /** A socket past its welcome, with every pong it gets counted. */
  async function pinger() {
    const client = await LiveClient.join(t.server, await anonymous((await broadcast()).id));
    let pongs = 0;
    client.ws.on('pong', () => pongs++);
    return { client, pongs: () => pongs };
  }

  it('answers a burst of 100 pings, every one, and keeps the socket', async () => {
    const { client, pongs } = await pinger();
    for (let i = 0; i < 100; i++) client.ws.ping();
    // The pongs go out in order before the answer to a message sent after the pings.
    client.send({ type: 'ping' });
    await client.next('pong');
    expect(pongs()).toBe(100);
    expect(client.closeCode).toBeUndefined();
    await client.close();
  });

  it('closes a ping flood past the limit with 1008 and a reason, logged and counted', async () => {
    const before = await refusals('ping_flood');
    const { client } = await pinger();
    const reason = new Promise<string>((resolve) => client.ws.on('close', (_code, r) => resolve(String(r))));
    for (let i = 0; i < 500; i++) client.ws.ping();
    expect(await client.closed).toBe(1008);
    expect(await reason).toBe('too many pings');
    expect(await refusals('ping_flood')).toBe(before + 1);
    expect(t.logs().some((l) => l.msg === 'live socket closed: too many pings')).toBe(true);
  });
});

describe('a gateway token naming an unknown signing key', () => {
  const claims = (eventId: string): GatewayClaims => ({
    eventId,
    participantId: `anon:${randomUUID()}`,
    userId: null,
    name: null,
    role: 'viewer',
    storedRole: 'viewer',
    anonymous: true,
    via: 'anonymous',
  });

  async function signedWith(kid: string, privateKey: CryptoKey, eventId: string): Promise<string> {
    return new SignJWT({ ...claims(eventId) })
      .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
      .setIssuer('gathercast')
      .setAudience('gathercast-live')
      .setExpirationTime('5m')
      .sign(privateKey);
  }

  it('does not reload the signing keys for every upgrade, yet honours a key added since', async () => {
    const event = await broadcast();
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const url = (token: string) =>
      `${t.url.replace('http', 'ws')}/v1/live?token=${encodeURIComponent(token)}`;
    const query = vi.spyOn(t.server.ctx.pool, 'query');
    const keyReloads = () =>
      query.mock.calls.filter(([text]) => String(text).includes('from signing_key')).length;
    try {
      const forged = await Promise.all(
        Array.from({ length: 30 }, async () =>
          refusal(url(await signedWith(randomUUID(), privateKey, event.id))),
        ),
      );
      expect(forged.every((r) => r.status === 401)).toBe(true);
      const again = await signedWith(randomUUID(), privateKey, event.id);
      await refusal(url(again));
      await refusal(url(again));
      expect(keyReloads()).toBeLessThanOrEqual(3);

      // A real key another replica just added: found by a reload, and the token is accepted.
      const kid = randomUUID();
      const [privateJwk, publicJwk] = [await exportJWK(privateKey), await exportJWK(publicKey)];
      await withDb(t.databaseUrl, (db) =>
        db.query(
          `insert into signing_key (kid, purpose, algorithm, private_jwk, public_jwk, created_at)
           values ($1, 'gateway', 'ES256', $2, $3, now() + interval '1 hour')`,
          [kid, privateJwk, publicJwk],
        ),
      );
      const welcomed = await LiveClient.join(t.server, await signedWith(kid, privateKey, event.id));
      expect(welcomed.all('welcome')[0]!.identity.role).toBe('viewer');
      await welcomed.close();
    } finally {
      query.mockRestore();
    }
  });
});

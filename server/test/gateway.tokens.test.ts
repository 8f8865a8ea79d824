import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type GatewayClaims, GatewayTokens } from '../src/lib/gateway-tokens';
import { startTestServer, type TestServer } from './support/server';

let t: TestServer;
let pool: pg.Pool;
beforeAll(async () => {
  t = await startTestServer();
  pool = new pg.Pool({ connectionString: t.databaseUrl, max: 2 });
});
afterAll(async () => {
  await pool.end();
  await t.close();
});

const claims: GatewayClaims = {
  eventId: '6a1f3c2e-8b4d-4e7a-9c1b-2d3e4f5a6b7c',
  participantId: 'user:0b6f8c7e-2f4c-4b7e-9a51-3d1f6e0c2a10',
  userId: '0b6f8c7e-2f4c-4b7e-9a51-3d1f6e0c2a10',
  name: 'Pat',
  role: 'host',
  storedRole: 'host',
  anonymous: false,
  via: 'account',
};

describe('gateway tokens', () => {
  it('verify what they signed, with the claims intact', async () => {
    const { token, expiresAt } = await t.server.ctx.gatewayTokens.sign(claims);
    expect(expiresAt.getTime() - Date.now()).toBeGreaterThan(4.9 * 60_000);
    expect(await t.server.ctx.gatewayTokens.verify(token)).toEqual(claims);
  });

  it('are verified by another process on the same database (one key, shared through it)', async () => {
    const other = await GatewayTokens.load(pool);
    const { token } = await t.server.ctx.gatewayTokens.sign(claims);
    expect(await other.verify(token)).toEqual(claims);
    const back = await other.sign(claims);
    expect(await t.server.ctx.gatewayTokens.verify(back.token)).toEqual(claims);
    const { rows } = await pool.query(`select count(*)::int as n from signing_key where purpose = 'gateway'`);
    expect(rows[0].n).toBe(1);
  });

  it('refuse a token past its five minutes', async () => {
    const { token } = await t.server.ctx.gatewayTokens.sign(claims, Date.now() - 6 * 60_000);
    await expect(t.server.ctx.gatewayTokens.verify(token)).rejects.toThrow();
  });

  it('refuse a token whose payload was altered', async () => {
    const { token } = await t.server.ctx.gatewayTokens.sign(claims);
    const [h, p, s] = token.split('.');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const forged = Buffer.from(
      JSON.stringify({ ...payload, role: 'host', eventId: claims.eventId.replace('6', '7') }),
    ).toString('base64url');
    await expect(t.server.ctx.gatewayTokens.verify(`${h}.${forged}.${s}`)).rejects.toThrow();
  });
});

import { importJWK, type JWK, SignJWT } from 'jose';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { type GatewayClaims, GatewayTokens } from '../src/gateway/tokens';
import { useTestServer } from './support/hooks';
import type { TestServer } from './support/server';

let t: TestServer;
let pool: pg.Pool;
useTestServer({}, (started) => {
  t = started;
  pool = new pg.Pool({ connectionString: t.databaseUrl, max: 2 });
});
afterAll(() => pool.end());

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
/** What verify answers for a token signed with `claims`: the same, plus when it was issued. */
const verified = { ...claims, issuedAt: expect.any(Number) };

describe('gateway tokens', () => {
  it('verify what they signed, with the claims intact', async () => {
    const { token, expiresAt } = await t.server.gatewayTokens.sign(claims);
    expect(expiresAt.getTime() - Date.now()).toBeGreaterThan(4.9 * 60_000);
    expect(await t.server.gatewayTokens.verify(token)).toEqual(verified);
  });

  it('are verified by another process on the same database (one key, shared through it)', async () => {
    const other = await GatewayTokens.load(pool);
    const { token } = await t.server.gatewayTokens.sign(claims);
    expect(await other.verify(token)).toEqual(verified);
    const back = await other.sign(claims);
    expect(await t.server.gatewayTokens.verify(back.token)).toEqual(verified);
    const { rows } = await pool.query(`select count(*)::int as n from signing_key where purpose = 'gateway'`);
    expect(rows[0].n).toBe(1);
  });

  it('refuse a token past its five minutes', async () => {
    const { token } = await t.server.gatewayTokens.sign(claims, Date.now() - 6 * 60_000);
    await expect(t.server.gatewayTokens.verify(token)).rejects.toThrow();
  });

  it('refuse a token whose payload was altered', async () => {
    const { token } = await t.server.gatewayTokens.sign(claims);
    const [h, p, s] = token.split('.');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString());
    const forged = Buffer.from(
      JSON.stringify({ ...payload, role: 'host', eventId: claims.eventId.replace('6', '7') }),
    ).toString('base64url');
    await expect(t.server.gatewayTokens.verify(`${h}.${forged}.${s}`)).rejects.toThrow();
  });

  it('refuse a resume secret offered as a gateway token (it is for another audience)', async () => {
    const secret = await t.server.gatewayTokens.resumeSecret(claims.eventId, claims.participantId, 7);
    expect(await t.server.gatewayTokens.resumeFloor(secret, claims.eventId, claims.participantId)).toBe(7);
    await expect(t.server.gatewayTokens.verify(secret)).rejects.toThrow();
  });

  it('refuse a token whose header names another algorithm, even with its signature intact', async () => {
    const { token } = await t.server.gatewayTokens.sign(claims);
    const [h, p, s] = token.split('.');
    const header = JSON.parse(Buffer.from(h!, 'base64url').toString());
    const none = Buffer.from(JSON.stringify({ ...header, alg: 'none' })).toString('base64url');
    await expect(t.server.gatewayTokens.verify(`${none}.${p}.${s}`)).rejects.toThrow();
    await expect(t.server.gatewayTokens.verify(`${none}.${p}.`)).rejects.toThrow();
  });

  it('give one resume secret per participant, event and joining position, which another process checks and no one else passes', async () => {
    const tokens = t.server.gatewayTokens;
    const secret = await tokens.resumeSecret(claims.eventId, claims.participantId, 42);
    expect(await tokens.resumeSecret(claims.eventId, claims.participantId, 42)).toBe(secret);
    const other = await GatewayTokens.load(pool);
    expect(await other.resumeFloor(secret, claims.eventId, claims.participantId)).toBe(42);
    expect(await other.resumeFloor(secret, claims.eventId, 'anon:someone-else')).toBeNull();
    expect(
      await other.resumeFloor(secret, claims.eventId.replace('6', '7'), claims.participantId),
    ).toBeNull();
    expect(
      await other.resumeFloor(`${secret.slice(0, -2)}AA`, claims.eventId, claims.participantId),
    ).toBeNull();
    // The position is signed: a secret claiming an earlier one is not ours.
    expect(
      await other.resumeFloor(secret.replace('.42.', '.0.'), claims.eventId, claims.participantId),
    ).toBeNull();
  });

  it('resume nothing with a secret of an earlier version, which states no joining position (a signed one here)', async () => {
    const { rows } = await pool.query<{ kid: string; private_jwk: JWK }>(
      `select kid, private_jwk from signing_key where purpose = 'gateway'`,
    );
    const legacy = await new SignJWT({ eventId: claims.eventId })
      .setProtectedHeader({ alg: 'ES256', kid: rows[0]!.kid, typ: 'JWT' })
      .setIssuer('gathercast')
      .setAudience('gathercast-live-resume')
      .setSubject(claims.participantId)
      .sign(await importJWK(rows[0]!.private_jwk, 'ES256'));
    const tokens = t.server.gatewayTokens;
    expect(await tokens.resumeFloor(legacy, claims.eventId, claims.participantId)).toBeNull();
  });
});

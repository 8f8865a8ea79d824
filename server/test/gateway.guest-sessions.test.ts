import { randomUUID } from 'node:crypto';
import type { GathercastClient } from '@gathercast/sdk';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashSecret } from '../src/lib/secrets';
import { signUp } from './support/accounts';
import { eventIn, rejection } from './support/events';
import { createWorkspace, type WorkspaceFixture, withDb } from './support/fixtures';
import { useServerWithGuestPartner } from './support/hooks';
import { type JwksServer, newPartner, type Partner, serveJwks } from './support/partner';
import type { TestServer } from './support/server';

let t: TestServer;
let ws: WorkspaceFixture;
let gc: GathercastClient;
let anon: GathercastClient;
let partner: Partner;
let eventId: string;
useServerWithGuestPartner(async (started) => {
  ({ t, ws, gc, anon, partner } = started);
  eventId = (await eventIn(gc, 'live', [{ modality: 'meeting' }])).id;
});

const exchange = (token: string, id = eventId) => anon.gateway.guestSession(id, { token });
const expectCode = async (call: Promise<unknown>, status: number, code: string) => {
  const err = await rejection(call);
  expect([err.status, err.code]).toEqual([status, code]);
  return err;
};

describe('guest session exchange', () => {
  it('mints a gcg_ guest session scoped to the event from the JWT claims', async () => {
    const jwt = await partner.sign({
      sub: 'partner-user-1',
      name: 'Gina Guest',
      email: 'gina@partner.example.test',
    });
    const session = await exchange(jwt);
    expect(session.sessionToken).toMatch(/^gcg_[A-Za-z0-9_-]{43}$/);
    expect(session.eventId).toBe(eventId);
    expect(session.guest).toEqual({
      sub: 'partner-user-1',
      name: 'Gina Guest',
      email: 'gina@partner.example.test',
    });
    const lifetime = new Date(session.expiresAt).getTime() - Date.now();
    expect(lifetime).toBeGreaterThan(4 * 3600_000 - 60_000);
    expect(lifetime).toBeLessThanOrEqual(4 * 3600_000);
  });

  it('stores only the hash of the session token, as an event-scoped guest session', async () => {
    const session = await exchange(await partner.sign({ sub: 'hash-check' }));
    const rows = await withDb(
      t.databaseUrl,
      async (db) =>
        (
          await db.query(
            'select kind, token_hash, event_id, account_id, subject_id from session where subject_id = $1',
            ['hash-check'],
          )
        ).rows,
    );
    expect(rows).toEqual([
      {
        kind: 'guest',
        token_hash: hashSecret(session.sessionToken),
        event_id: eventId,
        account_id: null,
        subject_id: 'hash-check',
      },
    ]);
    const leaked = await withDb(
      t.databaseUrl,
      async (db) =>
        (
          await db.query('select count(*)::int as n from session where token_hash = $1', [
            session.sessionToken,
          ])
        ).rows[0].n,
    );
    expect(leaked).toBe(0);
  });

  it('creates no account, workspace member or user for the guest', async () => {
    const count = () =>
      withDb(t.databaseUrl, async (db) => {
        const q = async (table: string) =>
          (await db.query(`select count(*)::int as n from ${table}`)).rows[0].n as number;
        return [
          await q('account'),
          await q('account_email'),
          await q('workspace_member'),
          await q('app_user'),
          await q('event_membership'),
        ];
      });
    const before = await count();
    await exchange(
      await partner.sign({ sub: 'no-records', name: 'N', email: 'no-records@partner.example.test' }),
    );
    expect(await count()).toEqual(before);
  });

  it('leaves name and email null when the JWT has none', async () => {
    const session = await exchange(await partner.sign({ sub: 'bare' }));
    expect(session.guest).toEqual({ sub: 'bare', name: null, email: null });
  });

  it('accepts a JWT that expired within the 60-second clock skew', async () => {
    const exp = Math.floor(Date.now() / 1000) - 20;
    const session = await exchange(await partner.sign({ sub: 'skewed', exp }));
    expect(session.guest.sub).toBe('skewed');
  });

  it('refuses an expired JWT with 400 invalid_token', async () => {
    await expectCode(
      exchange(await partner.sign({ exp: Math.floor(Date.now() / 1000) - 300 })),
      400,
      'invalid_token',
    );
  });

  it('refuses a JWT without exp with 400 invalid_token', async () => {
    const jwt = await new SignJWT({ sub: 'forever' })
      .setProtectedHeader({ alg: 'RS256' })
      .setIssuer(partner.issuer)
      .sign(partner.privateKey);
    await expectCode(exchange(jwt), 400, 'invalid_token');
  });

  it('refuses a JWT without sub with 400 invalid_token', async () => {
    await expectCode(exchange(await partner.sign({ sub: undefined })), 400, 'invalid_token');
  });

  it('refuses a JWT signed by another key for the same issuer with 400 invalid_token', async () => {
    const impostor = await newPartner(partner.issuer);
    await expectCode(exchange(await impostor.sign()), 400, 'invalid_token');
  });

  it('refuses an unknown issuer with 400 invalid_token', async () => {
    const stranger = await newPartner();
    await expectCode(exchange(await stranger.sign()), 400, 'invalid_token');
  });

  it('compares the issuer verbatim (400 invalid_token on a trailing slash)', async () => {
    await expectCode(exchange(await partner.sign({ iss: `${partner.issuer}/` })), 400, 'invalid_token');
  });

  it('refuses an HS256 JWT with 400 invalid_token', async () => {
    const jwt = await new SignJWT({ sub: 'hmac' })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(partner.issuer)
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('a shared secret that is long enough'));
    await expectCode(exchange(jwt), 400, 'invalid_token');
  });

  it('refuses something that is not a JWT with 400 invalid_token', async () => {
    await expectCode(exchange('not-a-jwt'), 400, 'invalid_token');
  });

  it('refuses a body with extra properties or an empty token with 400 bad_request', async () => {
    const jwt = await partner.sign();
    await expectCode(
      anon.gateway.guestSession(eventId, { token: jwt, extra: 1 } as never),
      400,
      'bad_request',
    );
    await expectCode(anon.gateway.guestSession(eventId, { token: '' }), 400, 'bad_request');
  });

  it('refuses a partner registered only in another workspace with 400 invalid_token', async () => {
    const other = await createWorkspace(t.databaseUrl);
    const theirs = await newPartner();
    await t
      .client({ apiKey: other.apiKey })
      .guestIntegrations.create(other.workspaceId, {
        issuer: theirs.issuer,
        publicKeyPem: theirs.publicKeyPem,
      });
    await expectCode(exchange(await theirs.sign()), 400, 'invalid_token');
  });

  it('refuses an email that belongs to an account (any of its emails, any case) with 409 account_exists', async () => {
    const person = await signUp(t, 'member');
    await expectCode(
      exchange(await partner.sign({ email: person.email.toUpperCase() })),
      409,
      'account_exists',
    );
    const secondary = `second-${randomUUID().slice(0, 8)}@example.test`;
    await withDb(t.databaseUrl, (db) =>
      db.query('insert into account_email (id, account_id, email, "primary") values ($1, $2, $3, false)', [
        randomUUID(),
        person.accountId,
        secondary,
      ]),
    );
    await expectCode(exchange(await partner.sign({ email: secondary })), 409, 'account_exists');
  });

  it('answers 404 for an unknown or draft event', async () => {
    const jwt = await partner.sign();
    await expectCode(exchange(jwt, randomUUID()), 404, 'not_found');
    const draft = await eventIn(gc, 'draft', [{ modality: 'meeting' }]);
    await expectCode(exchange(jwt, draft.id), 404, 'not_found');
  });

  it('answers 404 for an event of another workspace, even with a JWT of its partner', async () => {
    const other = await createWorkspace(t.databaseUrl);
    const otherEvent = await eventIn(t.client({ apiKey: other.apiKey }), 'live', [{ modality: 'meeting' }], {
      visibility: 'private',
    });
    await expectCode(exchange(await partner.sign(), otherEvent.id), 404, 'not_found');
  });

  it('accepts a scheduled event and refuses an ended one with 409 invalid_state', async () => {
    const scheduled = await eventIn(gc, 'scheduled', [{ modality: 'meeting' }]);
    expect((await exchange(await partner.sign(), scheduled.id)).eventId).toBe(scheduled.id);
    const ended = await eventIn(gc, 'ended', [{ modality: 'meeting' }]);
    await expectCode(exchange(await partner.sign(), ended.id), 409, 'invalid_state');
  });

  it('admits a verified guest to a private event but hides it from a bad JWT (404)', async () => {
    const priv = await eventIn(gc, 'live', [{ modality: 'meeting' }], { visibility: 'private' });
    expect((await exchange(await partner.sign(), priv.id)).eventId).toBe(priv.id);
    await expectCode(exchange(await (await newPartner()).sign(), priv.id), 404, 'not_found');
  });

  it('refuses new exchanges once the integration is revoked', async () => {
    const p = await newPartner();
    const created = await gc.guestIntegrations.create(ws.workspaceId, {
      issuer: p.issuer,
      publicKeyPem: p.publicKeyPem,
    });
    await exchange(await p.sign());
    await gc.guestIntegrations.delete(ws.workspaceId, created.id);
    await expectCode(exchange(await p.sign()), 400, 'invalid_token');
  });

  it('accepts a JWT from either of two active integrations of one issuer (key rotation)', async () => {
    const next = await newPartner(partner.issuer);
    await gc.guestIntegrations.create(ws.workspaceId, {
      issuer: partner.issuer,
      publicKeyPem: next.publicKeyPem,
    });
    expect((await exchange(await next.sign({ sub: 'new-key' }))).guest.sub).toBe('new-key');
    expect((await exchange(await partner.sign({ sub: 'old-key' }))).guest.sub).toBe('old-key');
  });

  it('never writes the partner JWT or the session token to the logs', async () => {
    const jwt = await partner.sign({ sub: 'quiet', email: 'quiet@partner.example.test' });
    const session = await exchange(jwt);
    const logs = t.logText();
    expect(logs).not.toContain(jwt);
    expect(logs).not.toContain(jwt.split('.')[2]);
    expect(logs).not.toContain(session.sessionToken);
  });

  it('cuts guest sessions short when the event ends', async () => {
    const event = await eventIn(gc, 'live', [{ modality: 'meeting' }]);
    const session = await exchange(await partner.sign({ sub: 'until-the-end' }), event.id);
    await gc.events.end(event.id);
    const [row] = await withDb(
      t.databaseUrl,
      async (db) =>
        (
          await db.query('select expires_at from session where token_hash = $1', [
            hashSecret(session.sessionToken),
          ])
        ).rows,
    );
    expect(new Date(row.expires_at).getTime()).toBeLessThanOrEqual(Date.now());
  });
});

describe('guest session exchange with a JWKS integration', () => {
  let jwks: JwksServer;
  let jwksPartner: Partner;
  beforeAll(async () => {
    jwksPartner = await newPartner();
    jwks = await serveJwks([jwksPartner]);
    await gc.guestIntegrations.create(ws.workspaceId, { issuer: jwksPartner.issuer, jwksUrl: jwks.url });
  });
  afterAll(() => jwks.close());

  it('verifies the JWT with the key named by its kid, fetching the key set once', async () => {
    const first = await exchange(await jwksPartner.sign({ sub: 'jwks-1', name: 'J' }));
    const second = await exchange(await jwksPartner.sign({ sub: 'jwks-2' }));
    expect([first.guest.sub, second.guest.sub]).toEqual(['jwks-1', 'jwks-2']);
    expect(jwks.requests).toBe(1);
  });

  it('refuses a JWT whose kid is not in the key set with 400 invalid_token', async () => {
    await expectCode(exchange(await jwksPartner.sign({}, { kid: 'unknown-kid' })), 400, 'invalid_token');
  });

  it('answers 503 service_unavailable when the key set cannot be fetched', async () => {
    const down = await newPartner();
    const server = await serveJwks([down]);
    server.status = 500;
    await gc.guestIntegrations.create(ws.workspaceId, { issuer: down.issuer, jwksUrl: server.url });
    await expectCode(exchange(await down.sign()), 503, 'service_unavailable');
    await server.close();
  });
});

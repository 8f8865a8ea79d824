import type { GathercastClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import { jwksFetch } from '../src/gateway/jwks-fetch';
import { BlockedTargetError } from '../src/lib/outbound-guard';
import { rejection } from './support/events';
import { createAccount, createWorkspace, type WorkspaceFixture } from './support/fixtures';
import { useServerWithWorkspace } from './support/hooks';
import { newPartner, type Partner, unusablePems } from './support/partner';
import type { TestServer } from './support/server';

let t: TestServer;
let ws: WorkspaceFixture;
let owner: GathercastClient;
let partner: Partner;
useServerWithWorkspace(async (started) => {
  ({ t, ws } = started);
  owner = t.client({ sessionToken: ws.sessionToken });
  partner = await newPartner();
});

const create = (
  gc: GathercastClient,
  body: { issuer: string; jwksUrl?: string; publicKeyPem?: string },
  id = ws.workspaceId,
) => gc.guestIntegrations.create(id, body);

describe('guest integrations', () => {
  it('registers a PEM integration and answers 201 with it', async () => {
    const created = await create(owner, { issuer: partner.issuer, publicKeyPem: partner.publicKeyPem });
    expect(created).toMatchObject({
      workspaceId: ws.workspaceId,
      issuer: partner.issuer,
      jwksUrl: null,
      publicKeyPem: partner.publicKeyPem.trim(),
    });
    expect(new Date(created.createdAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('registers a JWKS integration', async () => {
    const created = await create(owner, {
      issuer: 'https://jwks.example.test',
      jwksUrl: 'https://jwks.example.test/keys',
    });
    expect(created).toMatchObject({ jwksUrl: 'https://jwks.example.test/keys', publicKeyPem: null });
  });

  it('keeps the issuer verbatim', async () => {
    const created = await create(owner, {
      issuer: ' Partner/With Spaces ',
      publicKeyPem: partner.publicKeyPem,
    });
    expect(created.issuer).toBe(' Partner/With Spaces ');
  });

  it('refuses both or neither key source with 400 bad_request', async () => {
    const both = await rejection(
      create(owner, {
        issuer: 'x',
        jwksUrl: 'https://a.example.test/jwks',
        publicKeyPem: partner.publicKeyPem,
      }),
    );
    expect([both.status, both.code]).toEqual([400, 'bad_request']);
    const neither = await rejection(create(owner, { issuer: 'x' }));
    expect([neither.status, neither.code]).toEqual([400, 'bad_request']);
  });

  it('refuses an empty issuer with 400 bad_request', async () => {
    const err = await rejection(create(owner, { issuer: '', publicKeyPem: partner.publicKeyPem }));
    expect([err.status, err.code]).toEqual([400, 'bad_request']);
  });

  it.each(Object.entries(unusablePems()))(
    'refuses a %s PEM with 400 bad_request naming the field',
    async (_kind, pem) => {
      const err = await rejection(create(owner, { issuer: 'x', publicKeyPem: pem }));
      expect([err.status, err.code]).toEqual([400, 'bad_request']);
      expect(err.errors?.map((e) => e.path)).toEqual(['body.publicKeyPem']);
    },
  );

  it('refuses a JWKS URL that is not a URL with 400 bad_request', async () => {
    const err = await rejection(create(owner, { issuer: 'x', jwksUrl: 'not a url' }));
    expect([err.status, err.code]).toEqual([400, 'bad_request']);
  });

  it('lists only active integrations, and a revoked one is gone', async () => {
    const a = await create(owner, {
      issuer: 'https://list-a.example.test',
      publicKeyPem: partner.publicKeyPem,
    });
    const b = await create(owner, {
      issuer: 'https://list-b.example.test',
      publicKeyPem: partner.publicKeyPem,
    });
    await owner.guestIntegrations.delete(ws.workspaceId, a.id);
    const { integrations } = await owner.guestIntegrations.list(ws.workspaceId);
    const ids = integrations.map((i) => i.id);
    expect(ids).toContain(b.id);
    expect(ids).not.toContain(a.id);
  });

  it('answers 404 to a second delete of a revoked integration', async () => {
    const a = await create(owner, {
      issuer: 'https://twice.example.test',
      publicKeyPem: partner.publicKeyPem,
    });
    await owner.guestIntegrations.delete(ws.workspaceId, a.id);
    const err = await rejection(owner.guestIntegrations.delete(ws.workspaceId, a.id));
    expect([err.status, err.code]).toEqual([404, 'not_found']);
  });

  it('works with the workspace API key', async () => {
    const gc = t.client({ apiKey: ws.apiKey });
    const created = await create(gc, {
      issuer: 'https://by-key.example.test',
      publicKeyPem: partner.publicKeyPem,
    });
    const { integrations } = await gc.guestIntegrations.list(ws.workspaceId);
    expect(integrations.map((i) => i.id)).toContain(created.id);
  });

  it('lets members list but not create or delete (403 forbidden)', async () => {
    const member = await createAccount(t.databaseUrl, { workspaceId: ws.workspaceId, role: 'member' });
    const gc = t.client({ sessionToken: member.sessionToken });
    const existing = await create(owner, {
      issuer: 'https://member.example.test',
      publicKeyPem: partner.publicKeyPem,
    });
    const { integrations } = await gc.guestIntegrations.list(ws.workspaceId);
    expect(integrations.map((i) => i.id)).toContain(existing.id);
    const denied = await rejection(create(gc, { issuer: 'x', publicKeyPem: partner.publicKeyPem }));
    expect([denied.status, denied.code]).toEqual([403, 'forbidden']);
    const notDeleted = await rejection(gc.guestIntegrations.delete(ws.workspaceId, existing.id));
    expect([notDeleted.status, notDeleted.code]).toEqual([403, 'forbidden']);
  });

  it('lets an admin create and delete', async () => {
    const admin = await createAccount(t.databaseUrl, { workspaceId: ws.workspaceId, role: 'admin' });
    const gc = t.client({ sessionToken: admin.sessionToken });
    const created = await create(gc, {
      issuer: 'https://admin.example.test',
      publicKeyPem: partner.publicKeyPem,
    });
    await gc.guestIntegrations.delete(ws.workspaceId, created.id);
  });

  it('answers 401 without credentials', async () => {
    const err = await rejection(t.client().guestIntegrations.list(ws.workspaceId));
    expect([err.status, err.code]).toEqual([401, 'unauthorized']);
  });

  it("hides another workspace's integrations (404 not_found)", async () => {
    const other = await createWorkspace(t.databaseUrl);
    const otherOwner = t.client({ sessionToken: other.sessionToken });
    const theirs = await create(
      otherOwner,
      { issuer: 'https://theirs.example.test', publicKeyPem: partner.publicKeyPem },
      other.workspaceId,
    );
    const viaOurWorkspace = await rejection(owner.guestIntegrations.delete(ws.workspaceId, theirs.id));
    expect([viaOurWorkspace.status, viaOurWorkspace.code]).toEqual([404, 'not_found']);
    const viaTheirWorkspace = await rejection(owner.guestIntegrations.list(other.workspaceId));
    expect([viaTheirWorkspace.status, viaTheirWorkspace.code]).toEqual([404, 'not_found']);
    const ours = await owner.guestIntegrations.list(ws.workspaceId);
    expect(ours.integrations.map((i) => i.id)).not.toContain(theirs.id);
    const keyOfOurs = await rejection(
      t.client({ apiKey: ws.apiKey }).guestIntegrations.list(other.workspaceId),
    );
    expect(keyOfOurs.status).toBe(404);
  });
});

describe('guest integration JWKS URLs without WEBHOOK_ALLOW_INSECURE_URLS', () => {
  let strict: TestServer;
  let strictOwner: GathercastClient;
  let strictWs: WorkspaceFixture;
  useServerWithWorkspace({ WEBHOOK_ALLOW_INSECURE_URLS: 'false' }, (started) => {
    ({ t: strict, ws: strictWs } = started);
    strictOwner = strict.client({ sessionToken: strictWs.sessionToken });
  });

  it.each([
    ['http', 'http://partner.example.test/jwks'],
    ['localhost', 'https://localhost/jwks'],
    ['a loopback address', 'https://127.0.0.1/jwks'],
    ['a private address', 'https://10.1.2.3/jwks'],
    ['credentials', 'https://user:pw@partner.example.test/jwks'],
  ])('refuses %s with 400 bad_request', async (_what, jwksUrl) => {
    const err = await rejection(create(strictOwner, { issuer: 'x', jwksUrl }, strictWs.workspaceId));
    expect([err.status, err.code]).toEqual([400, 'bad_request']);
    expect(err.errors?.map((e) => e.path)).toEqual(['body.jwksUrl']);
  });

  it('refuses, at fetch time, a key set whose host resolves to a loopback address', async () => {
    const fetchKeys = jwksFetch(false);
    const options = {
      headers: new Headers(),
      method: 'GET' as const,
      redirect: 'manual' as const,
      signal: AbortSignal.timeout(2000),
    };
    await expect(fetchKeys('https://localhost:9/jwks', options)).rejects.toBeInstanceOf(BlockedTargetError);
    await expect(fetchKeys('https://127.0.0.1:9/jwks', options)).rejects.toBeInstanceOf(BlockedTargetError);
    await expect(fetchKeys('http://partner.example.test/jwks', options)).rejects.toThrow(/not allowed/);
  });

  it('accepts a public https URL', async () => {
    const created = await create(
      strictOwner,
      { issuer: 'x', jwksUrl: 'https://partner.example.test/jwks' },
      strictWs.workspaceId,
    );
    expect(created.jwksUrl).toBe('https://partner.example.test/jwks');
  });
});

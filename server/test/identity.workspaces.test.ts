import { describe, expect, it } from 'vitest';
import { apiKeyOf, failure, type SignedUp, signUp } from './support/accounts';
import { useTestServer } from './support/hooks';
import type { TestServer } from './support/server';

let t: TestServer;
useTestServer({}, (started) => {
  t = started;
});

/** An owner with a second account joined as member (through a link invite). */
async function teamOf(
  role: 'member' | 'admin' = 'member',
): Promise<{ owner: SignedUp; other: SignedUp; memberId: string }> {
  const owner = await signUp(t, 'owner');
  const other = await signUp(t, 'other');
  const invite = await owner.client.invites.create(owner.workspaceId, { kind: 'workspace', role });
  await other.client.invites.accept(invite.url!.split('/').pop()!);
  const { members } = await owner.client.members.list(owner.workspaceId);
  return { owner, other, memberId: members.find((m) => m.accountId === other.accountId)!.id };
}

describe('workspaces', () => {
  it('creates a workspace for a signed-in account with its first key, secret shown once', async () => {
    const person = await signUp(t);
    const ws = await person.client.workspaces.create({ name: 'Second', slug: `second-${Date.now()}` });
    expect(ws.apiKey.secret).toMatch(/^gck_[A-Za-z0-9_-]{43}$/);
    expect(ws.apiKey).toMatchObject({ workspaceId: ws.id, status: 'active' });
    const viaKey = t.client({ apiKey: ws.apiKey.secret });
    const { apiKeys } = await viaKey.apiKeys.list(ws.id);
    expect(apiKeys.map((k) => k.id)).toEqual([ws.apiKey.id]);
    expect(JSON.stringify(apiKeys)).not.toContain(ws.apiKey.secret);
  });

  it('generates a well-formed unique slug when none is given', async () => {
    const person = await signUp(t);
    const a = await person.client.workspaces.create({ name: 'Same Name' });
    const b = await person.client.workspaces.create({ name: 'Same Name' });
    expect(a.slug).toMatch(/^[a-z0-9](?:[a-z0-9]|-(?=[a-z0-9]))*$/);
    expect(b.slug).not.toBe(a.slug);
  });

  it('refuses a taken slug with 409 slug_taken on create and on update', async () => {
    const person = await signUp(t);
    const slug = `taken-${Date.now()}`;
    await person.client.workspaces.create({ name: 'One', slug });
    const onCreate = await failure(person.client.workspaces.create({ name: 'Two', slug }));
    expect([onCreate.status, onCreate.code]).toEqual([409, 'slug_taken']);
    const onUpdate = await failure(person.client.workspaces.update(person.workspaceId, { slug }));
    expect([onUpdate.status, onUpdate.code]).toEqual([409, 'slug_taken']);
  });

  it('refuses a malformed slug with 400 bad_request naming body.slug', async () => {
    const person = await signUp(t);
    const err = await failure(person.client.workspaces.update(person.workspaceId, { slug: '-Bad--Slug' }));
    expect([err.status, err.code]).toEqual([400, 'bad_request']);
    expect(err.body.errors).toEqual([expect.objectContaining({ path: 'body.slug' })]);
  });

  it('refuses extra properties on update with 400 bad_request', async () => {
    const person = await signUp(t);
    const res = await fetch(`${t.url}/v1/workspaces/${person.workspaceId}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${person.sessionToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'ok', plan: 'enterprise' }),
    });
    expect(res.status).toBe(400);
  });

  it('renames a workspace and changes its slug for an owner', async () => {
    const person = await signUp(t);
    const slug = `renamed-${Date.now()}`;
    const ws = await person.client.workspaces.update(person.workspaceId, { name: 'Renamed', slug });
    expect(ws).toMatchObject({ id: person.workspaceId, name: 'Renamed', slug });
  });

  it('lists only the caller’s workspaces', async () => {
    const a = await signUp(t);
    await signUp(t);
    const { workspaces } = await a.client.workspaces.list();
    expect(workspaces.map((w) => w.id)).toEqual([a.workspaceId]);
  });

  it('lists every workspace with a valid x-platform-key', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const { workspaces } = await t
      .client({ headers: { 'x-platform-key': 'test-platform-key' } })
      .workspaces.list();
    expect(workspaces.map((w) => w.id)).toEqual(expect.arrayContaining([a.workspaceId, b.workspaceId]));
  });

  it('refuses a wrong x-platform-key with 401 unauthorized', async () => {
    const err = await failure(t.client({ headers: { 'x-platform-key': 'wrong' } }).workspaces.list());
    expect([err.status, err.code]).toEqual([401, 'unauthorized']);
  });
});

describe('workspace session bridge', () => {
  it('returns a 12-hour gcw_ token and the bridged participant identity', async () => {
    const person = await signUp(t, 'bridge', 'Bridget');
    const before = Date.now();
    const bridged = await person.client.workspaces.createSession(person.workspaceId);
    expect(bridged.sessionToken).toMatch(/^gcw_[A-Za-z0-9_-]{43}$/);
    const lifetime = new Date(bridged.expiresAt).getTime() - before;
    expect(lifetime).toBeGreaterThan(12 * 3600_000 - 60_000);
    expect(lifetime).toBeLessThanOrEqual(12 * 3600_000 + 1000);
    expect(bridged.participant).toMatchObject({
      workspaceId: person.workspaceId,
      accountId: person.accountId,
      name: 'Bridget',
      email: person.email,
    });
  });

  it('upserts the same participant identity on every bridge', async () => {
    const person = await signUp(t);
    const first = await person.client.workspaces.createSession(person.workspaceId);
    const second = await person.client.workspaces.createSession(person.workspaceId);
    expect(second.participant.id).toBe(first.participant.id);
    expect(second.sessionToken).not.toBe(first.sessionToken);
  });

  it('refuses an API key with 403 forbidden (it needs a person)', async () => {
    const person = await signUp(t);
    const key = await apiKeyOf(person);
    const err = await failure(t.client({ apiKey: key }).workspaces.createSession(person.workspaceId));
    expect([err.status, err.code]).toEqual([403, 'forbidden']);
  });

  it('answers a workspace the account is not in with 404 not_found', async () => {
    const a = await signUp(t);
    const b = await signUp(t);
    const err = await failure(a.client.workspaces.createSession(b.workspaceId));
    expect([err.status, err.code]).toEqual([404, 'not_found']);
  });
});

describe('members', () => {
  it('lists members with their role and primary email', async () => {
    const { owner, other } = await teamOf();
    const { members } = await other.client.members.list(owner.workspaceId);
    expect(members).toEqual([
      expect.objectContaining({ accountId: owner.accountId, role: 'owner', email: owner.email }),
      expect.objectContaining({ accountId: other.accountId, role: 'member', email: other.email }),
    ]);
  });

  it('lets an owner promote a member to admin', async () => {
    const { owner, memberId } = await teamOf();
    const updated = await owner.client.members.update(owner.workspaceId, memberId, { role: 'admin' });
    expect(updated).toMatchObject({ id: memberId, role: 'admin' });
  });

  it('refuses to change an owner’s role with 403 forbidden', async () => {
    const { owner, other, memberId } = await teamOf('admin');
    const { members } = await owner.client.members.list(owner.workspaceId);
    const ownerId = members.find((m) => m.role === 'owner')!.id;
    const err = await failure(other.client.members.update(owner.workspaceId, ownerId, { role: 'member' }));
    expect([err.status, err.code]).toEqual([403, 'forbidden']);
    expect(memberId).not.toBe(ownerId);
  });

  it('refuses the owner role in a role change with 400 bad_request', async () => {
    const { owner, memberId } = await teamOf();
    const err = await failure(
      owner.client.members.update(owner.workspaceId, memberId, { role: 'owner' as 'admin' }),
    );
    expect([err.status, err.code]).toEqual([400, 'bad_request']);
  });

  it('removes a member, who then loses access', async () => {
    const { owner, other, memberId } = await teamOf();
    await owner.client.members.delete(owner.workspaceId, memberId);
    const err = await failure(other.client.members.list(owner.workspaceId));
    expect([err.status, err.code]).toEqual([404, 'not_found']);
  });

  it('refuses to remove an owner with 403 forbidden', async () => {
    const { owner, other } = await teamOf('admin');
    const { members } = await owner.client.members.list(owner.workspaceId);
    const ownerId = members.find((m) => m.role === 'owner')!.id;
    const err = await failure(other.client.members.delete(owner.workspaceId, ownerId));
    expect([err.status, err.code]).toEqual([403, 'forbidden']);
  });

  it('answers an unknown member id with 404 not_found', async () => {
    const owner = await signUp(t);
    const err = await failure(
      owner.client.members.delete(owner.workspaceId, '00000000-0000-4000-8000-000000000000'),
    );
    expect([err.status, err.code]).toEqual([404, 'not_found']);
  });

  it('lets a member leave with members/me', async () => {
    const { owner, other } = await teamOf();
    await other.client.members.leave(owner.workspaceId);
    const { members } = await owner.client.members.list(owner.workspaceId);
    expect(members.map((m) => m.accountId)).toEqual([owner.accountId]);
  });

  it('blocks the only owner from leaving with 409 conflict', async () => {
    const owner = await signUp(t);
    const err = await failure(owner.client.members.leave(owner.workspaceId));
    expect([err.status, err.code]).toEqual([409, 'conflict']);
  });
});

describe('API keys', () => {
  it('lists keys with metadata and revocation state, never secrets', async () => {
    const owner = await signUp(t);
    const created = await owner.client.apiKeys.create(owner.workspaceId, { name: 'ci' });
    const { apiKeys } = await owner.client.apiKeys.list(owner.workspaceId);
    const listed = apiKeys.find((k) => k.id === created.id)!;
    expect(listed).toEqual({
      id: created.id,
      workspaceId: owner.workspaceId,
      name: 'ci',
      status: 'active',
      createdAt: created.createdAt,
      lastUsedAt: null,
      revokedAt: null,
      scopes: ['*'],
      eventId: null,
    });
    expect(JSON.stringify(apiKeys)).not.toMatch(/gck_|secret/);
  });

  it('creates a key for the calling key’s workspace with POST /v1/api-keys', async () => {
    const owner = await signUp(t);
    const key = await apiKeyOf(owner);
    const created = await t.client({ apiKey: key }).apiKeys.createWithKey({ name: 'from key' });
    expect(created).toMatchObject({ workspaceId: owner.workspaceId, name: 'from key', status: 'active' });
    expect(created.secret).toMatch(/^gck_/);
    await t.client({ apiKey: created.secret }).members.list(owner.workspaceId);
  });

  it('refuses POST /v1/api-keys with a session with 401 unauthorized (it needs x-api-key)', async () => {
    const owner = await signUp(t);
    const err = await failure(owner.client.apiKeys.createWithKey({}));
    expect([err.status, err.code]).toEqual([401, 'unauthorized']);
  });

  it('revokes on the first delete: the key fails on the very next request and stays listed', async () => {
    const owner = await signUp(t);
    const key = await apiKeyOf(owner);
    const keyClient = t.client({ apiKey: key });
    await keyClient.members.list(owner.workspaceId);
    const { apiKeys } = await owner.client.apiKeys.list(owner.workspaceId);
    const id = apiKeys.find((k) => k.name === 'test')!.id;
    await owner.client.apiKeys.delete(owner.workspaceId, id);
    const err = await failure(keyClient.members.list(owner.workspaceId));
    expect([err.status, err.code]).toEqual([401, 'unauthorized']);
    const after = await owner.client.apiKeys.list(owner.workspaceId);
    expect(after.apiKeys.find((k) => k.id === id)).toMatchObject({
      status: 'revoked',
      revokedAt: expect.any(String),
    });
  });

  it('deletes a revoked key for good on the second delete', async () => {
    const owner = await signUp(t);
    const created = await owner.client.apiKeys.create(owner.workspaceId, {});
    const target = [owner.workspaceId, created.id] as const;
    await owner.client.apiKeys.delete(...target);
    await owner.client.apiKeys.delete(...target);
    const { apiKeys } = await owner.client.apiKeys.list(owner.workspaceId);
    expect(apiKeys.map((k) => k.id)).not.toContain(created.id);
    const third = await failure(owner.client.apiKeys.delete(...target));
    expect([third.status, third.code]).toEqual([404, 'not_found']);
  });

  it('records when each key was last used', async () => {
    const owner = await signUp(t);
    const created = await owner.client.apiKeys.create(owner.workspaceId, { name: 'used' });
    const before = Date.now();
    await t.client({ apiKey: created.secret }).members.list(owner.workspaceId);
    const { apiKeys } = await owner.client.apiKeys.list(owner.workspaceId);
    const lastUsedAt = apiKeys.find((k) => k.id === created.id)!.lastUsedAt!;
    expect(new Date(lastUsedAt).getTime()).toBeGreaterThanOrEqual(before - 1000);
  });
});

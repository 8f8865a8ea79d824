import { contract, type RouteMetadata } from '@gathercast/contract';
import { describe, expect, it } from 'vitest';
import { failure, type SignedUp, signUp } from './support/accounts';
import { useTestServer } from './support/hooks';
import type { TestServer } from './support/server';

type AnyRoute = { method: string; path: string; metadata?: RouteMetadata };

function routesOf(router: object): AnyRoute[] {
  return Object.values(router).flatMap((r) =>
    typeof (r as AnyRoute).method === 'string' ? [r as AnyRoute] : routesOf(r as object),
  );
}

describe('scoped API keys', () => {
  let t: TestServer;
  let owner: SignedUp;
  useTestServer({}, async (started) => {
    t = started;
    owner = await signUp(t);
  });

  const keyWith = (body: { scopes?: string[]; eventId?: string }) =>
    owner.client.apiKeys.create(owner.workspaceId, { name: 'scoped', ...body } as never);

  it('names a scope on every route an API key can call', () => {
    const keyRoutes = routesOf(contract).filter((r) =>
      ['member', 'admin', 'apiKey'].includes(r.metadata?.access ?? ''),
    );
    expect(keyRoutes.length).toBeGreaterThan(30);
    expect(keyRoutes.filter((r) => !r.metadata?.scope).map((r) => `${r.method} ${r.path}`)).toEqual([]);
  });

  it('gives a key every scope (`*`) unless it is created with some, and lists them in its record', async () => {
    const full = await keyWith({});
    expect(full.scopes).toEqual(['*']);
    expect(full.eventId).toBeNull();
    const reader = await keyWith({ scopes: ['events:read'] });
    const { apiKeys } = await owner.client.apiKeys.list(owner.workspaceId);
    expect(apiKeys.find((k) => k.id === reader.id)?.scopes).toEqual(['events:read']);
  });

  it('lets a read-only key read and answers 403 forbidden naming the missing scope on a write', async () => {
    const reader = t.client({ apiKey: (await keyWith({ scopes: ['events:read'] })).secret });
    await expect(reader.events.list({})).resolves.toHaveProperty('events');
    const err = await failure(reader.events.create({ type: 'webinar', title: 'Not allowed' }));
    expect([err.status, err.code]).toEqual([403, 'forbidden']);
    expect(err.detail).toContain('events:write');
  });

  it('lets a :write scope read the same resource', async () => {
    const writer = t.client({ apiKey: (await keyWith({ scopes: ['events:write'] })).secret });
    const event = await writer.events.create({ type: 'webinar', title: 'Written' });
    await expect(writer.events.retrieve(event.id)).resolves.toHaveProperty('id', event.id);
  });

  it('keeps a key to one event: its routes work, another event is not found, other routes are forbidden', async () => {
    const full = t.client({ apiKey: (await keyWith({})).secret });
    const mine = await full.events.create({ type: 'webinar', title: 'Mine' });
    const other = await full.events.create({ type: 'webinar', title: 'Other' });
    const restricted = await keyWith({ scopes: ['events:read', 'people:read'], eventId: mine.id });
    expect(restricted.eventId).toBe(mine.id);
    const key = t.client({ apiKey: restricted.secret });
    await expect(key.events.retrieve(mine.id)).resolves.toHaveProperty('id', mine.id);
    await expect(key.memberships.list(mine.id)).resolves.toBeDefined();
    expect((await failure(key.events.retrieve(other.id))).status).toBe(404);
    const listing = await failure(key.events.list({}));
    expect([listing.status, listing.code]).toEqual([403, 'forbidden']);
  });

  it('refuses a key creating a key with a scope it does not hold', async () => {
    const reader = t.client({ apiKey: (await keyWith({ scopes: ['workspace:write'] })).secret });
    const err = await failure(reader.apiKeys.createWithKey({ scopes: ['events:write'] }));
    expect([err.status, err.code]).toEqual([403, 'forbidden']);
    const ok = await reader.apiKeys.createWithKey({ scopes: ['workspace:read'] });
    expect(ok.scopes).toEqual(['workspace:read']);
  });

  it('answers 404 for an event restriction naming another workspace’s event', async () => {
    const stranger = await signUp(t, 'stranger');
    const theirs = await t
      .client({
        apiKey: (await stranger.client.apiKeys.create(stranger.workspaceId, {})).secret,
      })
      .events.create({ type: 'webinar', title: 'Theirs' });
    expect((await failure(keyWith({ eventId: theirs.id }))).status).toBe(404);
  });
});

import { describe, expect, it } from 'vitest';
import { createClient } from '../src';
import { routes } from '../src/routes';

interface Seen {
  url: string;
  method: string;
  headers: Headers;
  body: unknown;
}

/** A client whose fetch records each request and answers 200 with `answer`. */
function recording(answer: unknown = { id: 'x' }) {
  const seen: Seen[] = [];
  const fetch: typeof globalThis.fetch = async (url, init) => {
    seen.push({
      url: String(url),
      method: init?.method ?? 'GET',
      headers: new Headers(init?.headers),
      body: init?.body === undefined ? undefined : JSON.parse(String(init.body)),
    });
    return new Response(JSON.stringify(answer), { headers: { 'content-type': 'application/json' } });
  };
  return { gc: createClient({ baseUrl: 'http://api.test', fetch }), seen };
}

describe('the call shape: path ids positional, then the params object, then options', () => {
  it('retrieves by id', async () => {
    const { gc, seen } = recording();
    await gc.events.retrieve('e1');
    expect([seen[0]!.method, seen[0]!.url]).toEqual(['GET', 'http://api.test/v1/events/e1']);
  });

  it('updates with the id, then the body as an object', async () => {
    const { gc, seen } = recording();
    await gc.events.update('e1', { title: 'Renamed' });
    expect(seen[0]).toMatchObject({
      method: 'PATCH',
      url: 'http://api.test/v1/events/e1',
      body: { title: 'Renamed' },
    });
  });

  it('lists with the query as an object and per-call options last', async () => {
    const { gc, seen } = recording({ events: [], nextCursor: null });
    await gc.events.list({ limit: 5 }, { headers: { 'x-trace': 't1' } });
    expect(seen[0]!.url).toBe('http://api.test/v1/events?limit=5');
    expect(seen[0]!.headers.get('x-trace')).toBe('t1');
  });

  it('takes several path ids in path order', async () => {
    const { gc, seen } = recording();
    await gc.memberships.retrieve('e1', 'm1');
    expect(seen[0]!.url).toBe('http://api.test/v1/events/e1/memberships/m1');
  });

  it('takes options right after the ids of a route without params', async () => {
    const { gc, seen } = recording();
    await gc.events.publish('e1', { idempotencyKey: 'k1' });
    expect(seen[0]!.headers.get('idempotency-key')).toBe('k1');
    expect(seen[0]!.body).toBeUndefined();
  });

  it('names a workspace-scoped create by its workspace id', async () => {
    const { gc, seen } = recording();
    await gc.apiKeys.create('w1', { name: 'ci' });
    expect(seen[0]).toMatchObject({ url: 'http://api.test/v1/workspaces/w1/api-keys', body: { name: 'ci' } });
  });

  it('gives the raw answer with the same arguments, without throwing', async () => {
    const { gc } = recording({ id: 'e1' });
    const res = await gc.raw.events.retrieve('e1');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: 'e1' });
    expect(res.headers.get('content-type')).toBe('application/json');
  });

  it('refuses an object where a path id belongs with a TypeError naming the parameter', () => {
    const { gc } = recording();
    // @ts-expect-error the old argument object
    expect(() => gc.events.retrieve({ params: { id: 'e1' } })).toThrow(
      'events.retrieve: argument 1 is the path parameter "id" of /v1/events/:id (a string), got object',
    );
  });
});

describe('the verb table', () => {
  const methods = (group: keyof typeof routes) => Object.keys(routes[group]).sort();

  it('names reads retrieve, and a synonym of a verb the verb (get, append, remove, revoke)', () => {
    expect(methods('events')).toEqual([
      'advance',
      'create',
      'delete',
      'end',
      'list',
      'publish',
      'retrieve',
      'start',
      'update',
    ]);
    expect(methods('phases')).toEqual(['create', 'extend', 'update']);
    expect(methods('members')).toEqual(['delete', 'leave', 'list', 'update']);
    expect(methods('invites')).toEqual(['accept', 'create', 'delete', 'list', 'retrieve']);
    expect(methods('accounts')).toContain('retrieve');
  });

  it('ships neither browser redirects nor development-only routes', () => {
    expect(Object.keys(routes)).not.toContain('idp');
    expect(Object.keys(routes)).not.toContain('dev');
  });
});

import type { GathercastClient } from '@gathercast/sdk';
import { describe, expect, it } from 'vitest';
import { apiKeyOf, type SignedUp, signUp } from './support/accounts';
import { useTestServer } from './support/hooks';
import type { TestServer } from './support/server';

/**
 * Every management route of identity and tenancy × every kind of caller → the exact status and code
 * (Authentication rules 7, 8 and 10; another workspace's resources are 404).
 */
let t: TestServer;
useTestServer({}, (started) => {
  t = started;
});

type Policy = 'member' | 'admin' | 'memberSession' | 'apiKey';
type Caller =
  | 'none'
  | 'unknownKey'
  | 'revokedKey'
  | 'memberSession'
  | 'adminSession'
  | 'otherWorkspaceKey'
  | 'ownKey';
type Outcome = 'ok' | [number, string];

interface Fixture {
  owner: SignedUp;
  ws: string;
  clients: Record<Caller, GathercastClient>;
  /** A plain member the admin-only routes act on; fresh for each destructive call. */
  freshMemberId(): Promise<string>;
  freshKeyId(): Promise<string>;
  freshInviteId(): Promise<string>;
}

async function join(
  owner: SignedUp,
  role: 'member' | 'admin',
): Promise<{ person: SignedUp; memberId: string }> {
  const person = await signUp(t, role);
  const invite = await owner.client.invites.create(owner.workspaceId, { kind: 'workspace', role });
  await person.client.invites.accept(invite.url!.split('/').pop()!);
  const { members } = await owner.client.members.list(owner.workspaceId);
  return { person, memberId: members.find((m) => m.accountId === person.accountId)!.id };
}

async function fixture(): Promise<Fixture> {
  const owner = await signUp(t, 'owner');
  const ws = owner.workspaceId;
  const member = await join(owner, 'member');
  const admin = await join(owner, 'admin');
  const stranger = await signUp(t, 'stranger');
  const revoked = await owner.client.apiKeys.create(ws, { name: 'revoked' });
  await owner.client.apiKeys.delete(ws, revoked.id);
  return {
    owner,
    ws,
    clients: {
      none: t.client(),
      unknownKey: t.client({ apiKey: 'gck_0000000000000000000000000000000000000000000' }),
      revokedKey: t.client({ apiKey: revoked.secret }),
      memberSession: member.person.client,
      adminSession: admin.person.client,
      otherWorkspaceKey: t.client({ apiKey: await apiKeyOf(stranger) }),
      ownKey: t.client({ apiKey: await apiKeyOf(owner) }),
    },
    freshMemberId: async () => (await join(owner, 'member')).memberId,
    freshKeyId: async () => (await owner.client.apiKeys.create(ws, {})).id,
    freshInviteId: async () => (await owner.client.invites.create(ws, { kind: 'workspace' })).id,
  };
}

interface Route {
  name: string;
  policy: Policy;
  call(c: GathercastClient, f: Fixture): Promise<unknown>;
}

// members.leave last: a successful leave ends the caller's membership.
const routes: Route[] = [
  {
    name: 'PATCH /v1/workspaces/{id}',
    policy: 'admin',
    call: (c, f) => c.workspaces.update(f.ws, { name: 'Matrix' }),
  },
  {
    name: 'POST /v1/workspaces/{id}/session',
    policy: 'memberSession',
    call: (c, f) => c.workspaces.createSession(f.ws),
  },
  { name: 'GET /v1/workspaces/{id}/members', policy: 'member', call: (c, f) => c.members.list(f.ws) },
  {
    name: 'PATCH /v1/workspaces/{id}/members/{memberId}',
    policy: 'admin',
    call: async (c, f) => c.members.update(f.ws, await f.freshMemberId(), { role: 'admin' }),
  },
  {
    name: 'DELETE /v1/workspaces/{id}/members/{memberId}',
    policy: 'admin',
    call: async (c, f) => c.members.delete(f.ws, await f.freshMemberId()),
  },
  { name: 'GET /v1/workspaces/{id}/api-keys', policy: 'admin', call: (c, f) => c.apiKeys.list(f.ws) },
  { name: 'POST /v1/workspaces/{id}/api-keys', policy: 'admin', call: (c, f) => c.apiKeys.create(f.ws, {}) },
  {
    name: 'DELETE /v1/workspaces/{id}/api-keys/{keyId}',
    policy: 'admin',
    call: async (c, f) => c.apiKeys.delete(f.ws, await f.freshKeyId()),
  },
  { name: 'POST /v1/api-keys', policy: 'apiKey', call: (c) => c.apiKeys.createWithKey({}) },
  {
    name: 'POST /v1/workspaces/{id}/invites',
    policy: 'admin',
    call: (c, f) => c.invites.create(f.ws, { kind: 'workspace' }),
  },
  { name: 'GET /v1/workspaces/{id}/invites', policy: 'member', call: (c, f) => c.invites.list(f.ws) },
  {
    name: 'DELETE /v1/workspaces/{id}/invites/{inviteId}',
    policy: 'admin',
    call: async (c, f) => c.invites.delete(f.ws, await f.freshInviteId()),
  },
  {
    name: 'DELETE /v1/workspaces/{id}/members/me',
    policy: 'memberSession',
    call: (c, f) => c.members.leave(f.ws),
  },
];

const unauthorized: Outcome = [401, 'unauthorized'];
const forbidden: Outcome = [403, 'forbidden'];
const notFound: Outcome = [404, 'not_found'];

const expected: Record<Caller, Record<Policy, Outcome>> = {
  none: { member: unauthorized, admin: unauthorized, memberSession: unauthorized, apiKey: unauthorized },
  unknownKey: {
    member: unauthorized,
    admin: unauthorized,
    memberSession: unauthorized,
    apiKey: unauthorized,
  },
  revokedKey: {
    member: unauthorized,
    admin: unauthorized,
    memberSession: unauthorized,
    apiKey: unauthorized,
  },
  memberSession: { member: 'ok', admin: forbidden, memberSession: 'ok', apiKey: unauthorized },
  adminSession: { member: 'ok', admin: 'ok', memberSession: 'ok', apiKey: unauthorized },
  otherWorkspaceKey: { member: notFound, admin: notFound, memberSession: forbidden, apiKey: 'ok' },
  ownKey: { member: 'ok', admin: 'ok', memberSession: forbidden, apiKey: 'ok' },
};

async function outcomeOf(call: Promise<unknown>): Promise<Outcome> {
  try {
    await call;
    return 'ok';
  } catch (err) {
    const e = err as { status?: number; code?: string };
    if (typeof e.status !== 'number') throw err;
    return [e.status, e.code!];
  }
}

describe('authorization matrix', () => {
  for (const caller of Object.keys(expected) as Caller[]) {
    it(`answers every management route exactly for: ${caller}`, async () => {
      const f = await fixture();
      const got: Record<string, Outcome> = {};
      const want: Record<string, Outcome> = {};
      for (const route of routes) {
        want[route.name] = expected[caller][route.policy];
        got[route.name] = await outcomeOf(route.call(f.clients[caller], f));
      }
      expect(got).toEqual(want);
    }, 60_000);
  }
});

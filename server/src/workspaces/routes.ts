import { contract } from '@gathercast/contract';
import { initServer } from '@ts-rest/express';
import type { AppContext } from '../lib/context';
import { actorOf } from '../lib/actor';
import { createApiKey, deleteApiKey, listApiKeys, type NewApiKey } from './api-keys';
import { changeMemberRole, leaveWorkspace, listMembers, removeMember } from './members';
import { createWorkspace, listWorkspaces, updateWorkspace } from './service';
import { bridgeWorkspaceSession } from './session-bridge';

const s = initServer();

const newKey = (body: { name?: string; scopes?: NewApiKey['scopes']; eventId?: string }): NewApiKey => ({
  name: body.name ?? null,
  scopes: body.scopes,
  eventId: body.eventId,
});

export const workspacesRoutes = (_ctx: AppContext) =>
  s.router(contract.workspaces, {
    create: async ({ body, req }) => {
      const created = await req.em.transactional((tx) => createWorkspace(tx, req.auth.accountId!, body));
      return { status: 201, body: created };
    },
    list: async ({ req, query }) => ({
      status: 200,
      body: await listWorkspaces(req.em, { accountId: req.auth.accountId, platform: req.auth.platform }, query),
    }),
    update: async ({ body, req }) => ({ status: 200, body: await updateWorkspace(req.em, actorOf(req).workspaceId, body) }),
    createSession: async ({ req }) => {
      const actor = actorOf(req);
      return { status: 200, body: await bridgeWorkspaceSession(req.em, actor.workspaceId, actor.accountId!) };
    },
  });

/** Membership and key changes alter cached credentials: each answers once every process has seen it. */
export const membersRoutes = (ctx: AppContext) =>
  s.router(contract.members, {
    list: async ({ req, query }) => ({ status: 200, body: await listMembers(req.em, actorOf(req).workspaceId, query) }),
    leave: async ({ req }) => {
      const actor = actorOf(req);
      await leaveWorkspace(req.em, actor.workspaceId, actor.accountId!);
      await ctx.credentialChanges.propagated();
      return { status: 204, body: undefined };
    },
    update: async ({ params, body, req }) => {
      const member = await changeMemberRole(req.em, actorOf(req).workspaceId, params.memberId, body.role);
      await ctx.credentialChanges.propagated();
      return { status: 200, body: member };
    },
    remove: async ({ params, req }) => {
      await removeMember(req.em, actorOf(req).workspaceId, params.memberId);
      await ctx.credentialChanges.propagated();
      return { status: 204, body: undefined };
    },
  });

export const apiKeysRoutes = (ctx: AppContext) =>
  s.router(contract.apiKeys, {
    list: async ({ req, query }) => ({ status: 200, body: await listApiKeys(req.em, actorOf(req).workspaceId, query) }),
    create: async ({ body, req }) => ({
      status: 201,
      body: await createApiKey(req.em, actorOf(req).workspaceId, newKey(body), req.auth.apiKey),
    }),
    delete: async ({ params, req }) => {
      await deleteApiKey(req.em, actorOf(req).workspaceId, params.keyId);
      await ctx.credentialChanges.propagated();
      return { status: 204, body: undefined };
    },
    createWithKey: async ({ body, req }) => ({
      status: 201,
      body: await createApiKey(req.em, actorOf(req).workspaceId, newKey(body), req.auth.apiKey),
    }),
  });

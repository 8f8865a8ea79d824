import { contract } from '@gathercast/contract';
import { initServer } from '@ts-rest/express';
import type { AppContext } from '../lib/context';
import { actorOf } from '../lib/actor';
import { createApiKey, deleteApiKey, listApiKeys } from './api-keys';
import { changeMemberRole, leaveWorkspace, listMembers, removeMember } from './members';
import { createWorkspace, listWorkspaces, updateWorkspace } from './service';
import { bridgeWorkspaceSession } from './session-bridge';

const s = initServer();

export const workspacesRoutes = (_ctx: AppContext) =>
  s.router(contract.workspaces, {
    create: async ({ body, req }) => {
      const created = await req.em.transactional((tx) => createWorkspace(tx, req.auth.accountId!, body));
      return { status: 201, body: created };
    },
    list: async ({ req }) => ({
      status: 200,
      body: { workspaces: await listWorkspaces(req.em, { accountId: req.auth.accountId, platform: req.auth.platform }) },
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
    list: async ({ req }) => ({ status: 200, body: { members: await listMembers(req.em, actorOf(req).workspaceId) } }),
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
    list: async ({ req }) => ({ status: 200, body: { apiKeys: await listApiKeys(req.em, actorOf(req).workspaceId) } }),
    create: async ({ body, req }) => ({
      status: 201,
      body: await createApiKey(req.em, actorOf(req).workspaceId, body.name ?? null),
    }),
    delete: async ({ params, req }) => {
      await deleteApiKey(req.em, actorOf(req).workspaceId, params.keyId);
      await ctx.credentialChanges.propagated();
      return { status: 204, body: undefined };
    },
    createWithKey: async ({ body, req }) => ({
      status: 201,
      body: await createApiKey(req.em, actorOf(req).workspaceId, body.name ?? null),
    }),
  });

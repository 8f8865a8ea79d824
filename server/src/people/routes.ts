import { contract } from '@gathercast/contract';
import { initServer } from '@ts-rest/express';
import { iso, sql } from '../events/sql';
import { actorOf } from '../lib/actor';
import { createMembership, deleteMembership, getMembership, listMemberships } from './memberships-service';
import { listQuestions } from './questions-service';
import { type UserRecord, upsertUser } from './users-service';

const s = initServer();

const toUser = (u: UserRecord) => ({
  id: u.id,
  workspaceId: u.workspaceId,
  externalSub: u.externalSub,
  email: u.email,
  name: u.name,
  picture: u.picture,
  createdAt: iso(u.createdAt)!,
  updatedAt: iso(u.updatedAt)!,
});

interface UserRow {
  id: string;
  workspace_id: string;
  external_sub: string;
  account_id: string | null;
  email: string | null;
  name: string | null;
  picture: string | null;
  created_at: Date;
  updated_at: Date;
}

export const usersRoutes = () =>
  s.router(contract.users, {
    list: async ({ req }) => {
      const rows = await sql<UserRow>(
        req.em,
        'select * from app_user where workspace_id = ? order by created_at, id',
        [actorOf(req).workspaceId],
      );
      const users = rows.map((r) =>
        toUser({
          id: r.id,
          workspaceId: r.workspace_id,
          externalSub: r.external_sub,
          accountId: r.account_id,
          email: r.email,
          name: r.name,
          picture: r.picture,
          createdAt: r.created_at,
          updatedAt: r.updated_at,
        }),
      );
      return { status: 200, body: { users } };
    },
    upsert: async ({ req, body }) => {
      const { user, created } = await upsertUser(req.em, actorOf(req).workspaceId, body);
      return { status: created ? 201 : 200, body: toUser(user) };
    },
  });

export const membershipsRoutes = () =>
  s.router(contract.memberships, {
    create: async ({ req, params, body }) => ({
      status: 201,
      body: await createMembership(req.em, actorOf(req), params.id, body),
    }),
    list: async ({ req, params }) => ({
      status: 200,
      body: { memberships: await listMemberships(req.em, actorOf(req), params.id) },
    }),
    get: async ({ req, params }) => ({
      status: 200,
      body: await getMembership(req.em, actorOf(req), params.id, params.membershipId),
    }),
    delete: async ({ req, params }) => {
      await deleteMembership(req.em, actorOf(req), params.id, params.membershipId);
      return { status: 204, body: undefined };
    },
  });

export const questionsRoutes = () =>
  s.router(contract.questions, {
    list: async ({ req, params }) => ({
      status: 200,
      body: { questions: await listQuestions(req.em, actorOf(req), params.id) },
    }),
  });

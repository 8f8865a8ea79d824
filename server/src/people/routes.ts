import { contract } from '@gathercast/contract';
import { initServer } from '@ts-rest/express';
import { iso } from '../db/sql';
import { actorOf } from '../lib/actor';
import { createMembership, deleteMembership, getMembership, listMemberships } from './memberships-service';
import { listQuestions } from './questions-service';
import { listUsers, type UserRecord, upsertUser } from './users-service';

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

export const usersRoutes = () =>
  s.router(contract.users, {
    list: async ({ req, query }) => {
      const page = await listUsers(req.em, actorOf(req).workspaceId, query);
      return { status: 200, body: { users: page.users.map(toUser), nextCursor: page.nextCursor } };
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
    list: async ({ req, params, query }) => ({
      status: 200,
      body: await listMemberships(req.em, actorOf(req), params.id, query),
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
    list: async ({ req, params, query }) => ({
      status: 200,
      body: await listQuestions(req.em, actorOf(req), params.id, query),
    }),
  });

import { contract } from '@gathercast/contract';
import { initServer } from '@ts-rest/express';
import type { Request } from 'express';
import { actorOf } from '../../lib/actor';
import type { AppContext } from '../../lib/context';
import { problem } from '../../lib/problem';
import { presentPage } from '../audience';
import type { Fanout } from '../fanout';
import type { LivePresence } from '../presence';
import {
  type Acting,
  banParticipant,
  deleteChatMessage,
  deleteQuestion,
  removeParticipant,
  requireOpenRoom,
  roomSettings,
  setMuted,
  unbanParticipant,
  updateRoom,
} from './room-control';

const s = initServer();

/** What the REST side of room control needs of this process's live gateway. */
export interface LiveRoomAccess {
  fanout: Fanout;
  presence: Pick<LivePresence, 'page'>;
}

/** The live room over REST (docs/live.md, "Running the room"). Registered in server/src/app/routes.ts. */
export function liveControlRoutes(ctx: AppContext, live: LiveRoomAccess) {
  const deps = { pool: ctx.pool, bus: ctx.bus, fanout: live.fanout };
  /** The caller acts on their workspace's open event, as `api`. */
  const actingOn = async (req: Request, eventId: string): Promise<Acting> => {
    const { workspaceId } = actorOf(req);
    await requireOpenRoom(ctx.pool, workspaceId, eventId);
    return { workspaceId, eventId, by: 'api' };
  };
  const done = { status: 204 as const, body: undefined };
  return {
    participants: s.router(contract.liveParticipants, {
      list: async ({ req, params, query }) => {
        // A list's query has numbers (limit), which Express's own Request type does not allow.
        const { workspaceId } = actorOf(req as unknown as Request);
        const { rows } = await ctx.pool.query(`select 1 from event where id = $1 and workspace_id = $2`, [
          params.id,
          workspaceId,
        ]);
        if (!rows[0]) throw problem('not_found', 'Event not found');
        const found = await presentPage(live.presence, params.id, query.cursor, query.limit);
        if (!found)
          throw problem('bad_request', 'The cursor is not one this API returned', {
            errors: [{ path: 'query.cursor', code: 'invalid_value', message: 'Invalid cursor' }],
          });
        const muted = await ctx.pool.query<{ participant_id: string }>(
          `select participant_id from live_sanction where event_id = $1 and kind = 'mute' and participant_id = any($2)`,
          [params.id, found.page.map((p) => p.participantId)],
        );
        const mutedIds = new Set(muted.rows.map((r) => r.participant_id));
        return {
          status: 200,
          body: {
            participants: found.page.map((p) => ({
              participantId: p.participantId,
              userId: p.userId,
              name: p.name,
              role: p.role,
              anonymous: p.anonymous,
              muted: mutedIds.has(p.participantId),
            })),
            nextCursor: found.nextCursor,
          },
        };
      },
      remove: async ({ req, params, body }) => {
        await removeParticipant(
          deps,
          await actingOn(req, params.id),
          params.participantId,
          body.reason ?? null,
        );
        return done;
      },
      ban: async ({ req, params, body }) => {
        await banParticipant(deps, await actingOn(req, params.id), params.participantId, {
          reason: body.reason ?? null,
          clientAddress: body.clientAddress ?? false,
        });
        return done;
      },
      unban: async ({ req, params }) => {
        await unbanParticipant(deps, await actingOn(req, params.id), params.participantId);
        return done;
      },
      mute: async ({ req, params }) => {
        await setMuted(deps, await actingOn(req, params.id), params.participantId, true);
        return done;
      },
      unmute: async ({ req, params }) => {
        await setMuted(deps, await actingOn(req, params.id), params.participantId, false);
        return done;
      },
    }),
    room: s.router(contract.liveRoom, {
      get: async ({ req, params }) => {
        const { workspaceId } = actorOf(req);
        await requireOpenRoom(ctx.pool, workspaceId, params.id);
        return { status: 200, body: await roomSettings(ctx.pool, params.id) };
      },
      update: async ({ req, params, body }) => ({
        status: 200,
        body: await updateRoom(deps, await actingOn(req, params.id), body),
      }),
      deleteChatMessage: async ({ req, params }) => {
        await deleteChatMessage(deps, await actingOn(req, params.id), params.messageId);
        return done;
      },
      deleteQuestion: async ({ req, params }) => {
        await deleteQuestion(deps, await actingOn(req, params.id), params.questionId);
        return done;
      },
    }),
  };
}

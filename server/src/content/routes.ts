import { contract } from '@gathercast/contract';
import { initServer } from '@ts-rest/express';
import type { AppContext } from '../lib/context';
import { actorOf } from '../lib/actor';
import { publicAsset, publicContent, publicRecap } from './public-service';
import {
  createClip,
  createRecording,
  deleteClip,
  deleteRecording,
  listClips,
  listRecordings,
} from './recordings-service';
import { tableSummary } from './table-summary-service';
import { createTranscript, deleteTranscript, listTranscripts } from './transcripts-service';

const s = initServer();

export const contentRoutes = (ctx: AppContext) =>
  s.router(contract.content, {
    createRecording: async ({ req, params, body }) => ({
      status: 201,
      body: await createRecording(ctx, req.em, actorOf(req), params.id, body),
    }),
    listRecordings: async ({ req, params, query }) => ({
      status: 200,
      body: await listRecordings(req.em, actorOf(req), params.id, query),
    }),
    deleteRecording: async ({ req, params }) => {
      await deleteRecording(req.em, actorOf(req), params.id);
      return { status: 204, body: undefined };
    },
    createTranscript: async ({ req, params, body }) => ({
      status: 201,
      body: await createTranscript(ctx, req.em, actorOf(req), params.id, body),
    }),
    listTranscripts: async ({ req, params, query }) => ({
      status: 200,
      body: await listTranscripts(req.em, actorOf(req), params.id, query),
    }),
    deleteTranscript: async ({ req, params }) => {
      await deleteTranscript(req.em, actorOf(req), params.id);
      return { status: 204, body: undefined };
    },
    createClip: async ({ req, params, body }) => ({
      status: 201,
      body: await createClip(ctx, req.em, actorOf(req), params.id, body),
    }),
    listClips: async ({ req, params, query }) => ({
      status: 200,
      body: await listClips(req.em, actorOf(req), params.id, query),
    }),
    deleteClip: async ({ req, params }) => {
      await deleteClip(req.em, actorOf(req), params.id);
      return { status: 204, body: undefined };
    },
  });

/** The public routes of post-event content, merged into the `public` router group. */
export const contentPublicRoutes = () => ({
  tableSummary: s.route(contract.public.tableSummary, async ({ req, params, query }) => ({
    status: 200,
    body: await tableSummary(req.em, params.id, query.t),
  })),
  recap: s.route(contract.public.recap, async ({ req, params }) => ({
    status: 200,
    body: await publicRecap(req.em, req.auth, params.id),
  })),
  content: s.route(contract.public.content, async ({ req, params }) => ({
    status: 200,
    body: await publicContent(req.em, req.auth, params.id),
  })),
  asset: s.route(contract.public.asset, async ({ req, params }) => ({
    status: 200,
    body: await publicAsset(req.em, req.auth, params.id),
  })),
});

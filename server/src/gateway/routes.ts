import { contract } from '@gathercast/contract';
import { initServer } from '@ts-rest/express';
import { actorOf } from '../lib/actor';
import type { AppContext } from '../lib/context';
import { issueGatewayToken, type TokenDeps } from './gateway-token-service';
import { exchangeGuestToken } from './guest-sessions';
import { integrationsService } from './integrations-service';
import { PartnerKeys } from './partner-keys';

const s = initServer();

/** Guest integrations (workspace admin surface). Registered in server/src/app/routes.ts. */
export const guestIntegrationsRoutes = (ctx: AppContext) => {
  const integrations = integrationsService({ allowInsecureUrls: ctx.config.webhookAllowInsecureUrls });
  return s.router(contract.guestIntegrations, {
    create: async ({ req, body }) => ({
      status: 201,
      body: await integrations.create(req.em, actorOf(req), body),
    }),
    list: async ({ req, query }) => ({
      status: 200,
      body: await integrations.list(req.em, actorOf(req), query),
    }),
    delete: async ({ req, params }) => {
      await integrations.revoke(req.em, actorOf(req), params.integrationId);
      return { status: 204, body: undefined };
    },
  });
};

/** The gateway token and the guest-session exchange (public routes; credentials are optional). */
export const gatewayRoutes = (ctx: AppContext, deps: TokenDeps) => {
  // One key cache per process: imported PEMs and remote key sets are reused across exchanges.
  const partnerKeys = new PartnerKeys(ctx.config.webhookAllowInsecureUrls);
  return {
    token: s.route(contract.gateway.token, async ({ req, body }) => ({
      status: 200,
      body: await issueGatewayToken(
        deps,
        () => req.em,
        req.auth,
        req.header('authorization') !== undefined,
        body.eventId,
      ),
    })),
    guestSession: s.route(contract.gateway.guestSession, async ({ req, params, body }) => ({
      status: 200,
      body: await exchangeGuestToken(req.em, partnerKeys, params.id, body.token),
    })),
  };
};

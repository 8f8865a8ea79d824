import { contract } from '@gathercast/contract';
import type { AppRoute, AppRouter } from '@ts-rest/core';
import { isAppRoute } from '@ts-rest/core';
import { idpRoutes } from '../accounts/idp-routes';
import { accountsRoutes } from '../accounts/routes';
import type { AppContext } from '../lib/context';
import { broadcastRoutes } from '../broadcasts/routes';
import { contentPublicRoutes, contentRoutes } from '../content/routes';
import { devRoutes } from '../dev/routes';
import { eventsRoutes } from '../events/routes';
import { helpRoutes } from '../help/routes';
import { gatewayRoutes, guestIntegrationsRoutes } from '../gateway/routes';
import { invitesRoutes } from '../invites/routes';
import { membershipsRoutes, questionsRoutes, usersRoutes } from '../people/routes';
import { phasesRoutes } from '../phases/routes';
import { publicRoutes } from '../public/routes';
import { apiKeysRoutes, membersRoutes, workspacesRoutes } from '../workspaces/routes';
import { webhooksRoutes } from '../webhooks/routes';
import { problem } from '../lib/problem';

/**
 * Each domain contributes the ts-rest handlers of its part of the contract. A route no domain
 * implements yet answers 501 `not_implemented` (and nothing else may answer 501).
 */
export function domainRouters(ctx: AppContext): Record<string, unknown> {
  return {
    dev: devRoutes(ctx),
    events: eventsRoutes(ctx),
    phases: phasesRoutes(),
    users: usersRoutes(),
    memberships: membershipsRoutes(),
    questions: questionsRoutes(),
    public: { ...publicRoutes(ctx), ...helpRoutes(ctx), ...contentPublicRoutes() },
    content: contentRoutes(ctx),
    accounts: accountsRoutes(ctx),
    idp: idpRoutes(ctx),
    workspaces: workspacesRoutes(ctx),
    members: membersRoutes(ctx),
    apiKeys: apiKeysRoutes(ctx),
    invites: invitesRoutes(ctx),
    webhooks: webhooksRoutes(ctx),
    broadcast: broadcastRoutes(ctx),
    gateway: gatewayRoutes(ctx),
    guestIntegrations: guestIntegrationsRoutes(ctx),
  };
}

const notImplemented = (route: AppRoute) => async () => {
  throw problem('not_implemented', `${route.method} ${route.path} is not available yet`);
};

export function completeRouter(
  router: AppRouter,
  implemented: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(router)) {
    const impl = implemented?.[key];
    if (isAppRoute(value)) out[key] = impl ?? notImplemented(value);
    else out[key] = completeRouter(value as AppRouter, impl as Record<string, unknown> | undefined);
  }
  return out;
}

export function buildRouter(ctx: AppContext) {
  return completeRouter(contract, domainRouters(ctx));
}

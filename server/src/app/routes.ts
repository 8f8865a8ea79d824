import { contract } from '@gathercast/contract';
import type { AppRoute, AppRouter } from '@ts-rest/core';
import { isAppRoute } from '@ts-rest/core';
import { idpRoutes } from '../accounts/idp-routes';
import { accountsRoutes } from '../accounts/routes';
import { attendanceRoutes } from '../attendance/routes';
import { chatRoutes, pollsRoutes, reactionsRoutes } from '../audience/routes';
import { broadcastRoutes } from '../broadcasts/routes';
import { contentPublicRoutes, contentRoutes } from '../content/routes';
import { devRoutes } from '../dev/routes';
import { eventsRoutes } from '../events/routes';
import { tokenDeps } from '../gateway/gateway-token-service';
import { liveAccessRoutes } from '../gateway/live-access-routes';
import { gatewayRoutes, guestIntegrationsRoutes } from '../gateway/routes';
import type { GatewayTokens } from '../gateway/tokens';
import { helpRoutes } from '../help/routes';
import { invitesRoutes } from '../invites/routes';
import type { AppContext } from '../lib/context';
import { problem } from '../lib/problem';
import { type LiveRoomAccess, liveControlRoutes } from '../live/control/routes';
import { membershipsRoutes, questionsRoutes, usersRoutes } from '../people/routes';
import { phasesRoutes } from '../phases/routes';
import { publicRoutes } from '../public/routes';
import { registrantRoutes, registrationsRoutes } from '../registrations/routes';
import { eventLogRoutes, webhooksRoutes } from '../webhooks/routes';
import { apiKeysRoutes, membersRoutes, workspacesRoutes } from '../workspaces/routes';

/**
 * Each domain contributes the ts-rest handlers of its part of the contract. A route no domain
 * implements yet answers 501 `not_implemented` (and nothing else may answer 501).
 */
export function domainRouters(
  ctx: AppContext,
  live: LiveRoomAccess,
  tokens: GatewayTokens,
): Record<string, unknown> {
  const tokenRoutesDeps = tokenDeps(ctx, tokens);
  const access = liveAccessRoutes(tokenRoutesDeps);
  const room = liveControlRoutes(ctx, live);
  return {
    dev: devRoutes(ctx),
    events: eventsRoutes(ctx),
    phases: phasesRoutes(),
    users: usersRoutes(),
    memberships: membershipsRoutes(),
    questions: questionsRoutes(),
    polls: pollsRoutes(),
    reactions: reactionsRoutes(),
    chat: chatRoutes(),
    public: { ...publicRoutes(ctx), ...helpRoutes(ctx), ...contentPublicRoutes() },
    content: contentRoutes(ctx),
    accounts: accountsRoutes(ctx),
    idp: idpRoutes(ctx),
    workspaces: workspacesRoutes(ctx),
    members: membersRoutes(ctx),
    apiKeys: apiKeysRoutes(ctx),
    invites: invitesRoutes(ctx),
    webhooks: webhooksRoutes(ctx),
    eventLog: eventLogRoutes(ctx),
    broadcast: broadcastRoutes(ctx),
    gateway: gatewayRoutes(ctx, tokenRoutesDeps),
    guestIntegrations: guestIntegrationsRoutes(ctx),
    registrations: registrationsRoutes(ctx),
    registrant: registrantRoutes(ctx),
    attendance: attendanceRoutes(),
    liveTokens: access.tokens,
    liveJoinLinks: access.joinLinks,
    liveParticipants: room.participants,
    liveRoom: room.room,
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

export function buildRouter(ctx: AppContext, live: LiveRoomAccess, tokens: GatewayTokens) {
  return completeRouter(contract, domainRouters(ctx, live, tokens));
}

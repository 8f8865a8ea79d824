import { type ClientOptions, RequestCore } from './core';
import { accountsResource } from './resources/accounts';
import { apiKeysResource } from './resources/api-keys';
import { broadcastResource } from './resources/broadcast';
import { contentResource } from './resources/content';
import { devResource } from './resources/dev';
import { eventsResource } from './resources/events';
import { gatewayResource } from './resources/gateway';
import { guestIntegrationsResource } from './resources/guest-integrations';
import { idpResource } from './resources/idp';
import { invitesResource } from './resources/invites';
import { membersResource } from './resources/members';
import { membershipsResource } from './resources/memberships';
import { phasesResource } from './resources/phases';
import { publicResource } from './resources/public';
import { questionsResource } from './resources/questions';
import { usersResource } from './resources/users';
import { webhooksResource } from './resources/webhooks';
import { workspacesResource } from './resources/workspaces';

/**
 * A typed Gathercast client. Every method resolves to the success body and throws `GathercastError`
 * (status, code, detail, requestId) on a problem answer.
 *
 *   const gc = createClient({ baseUrl, apiKey: process.env.GATHERCAST_API_KEY });
 *   const event = await gc.events.create({ body: { type: 'webinar', title: 'Launch' } });
 */
export function createClient(options: ClientOptions) {
  const core = new RequestCore(options);
  return {
    accounts: accountsResource(core),
    idp: idpResource(core),
    public: publicResource(core),
    gateway: gatewayResource(core),
    guestIntegrations: guestIntegrationsResource(core),
    workspaces: workspacesResource(core),
    members: membersResource(core),
    apiKeys: apiKeysResource(core),
    invites: invitesResource(core),
    events: eventsResource(core),
    phases: phasesResource(core),
    users: usersResource(core),
    memberships: membershipsResource(core),
    questions: questionsResource(core),
    webhooks: webhooksResource(core),
    broadcast: broadcastResource(core),
    content: contentResource(core),
    dev: devResource(core),
    /** The underlying ts-rest client: `{ status, body, headers }` without throwing. */
    raw: core.raw,
  };
}
export type GathercastClient = ReturnType<typeof createClient>;

import { type ClientOptions, type RawClient, RequestCore } from './core';
import { accountsResource, type AccountsResource } from './resources/accounts';
import { apiKeysResource, type ApiKeysResource } from './resources/api-keys';
import { broadcastResource, type BroadcastResource } from './resources/broadcast';
import { contentResource, type ContentResource } from './resources/content';
import { devResource, type DevResource } from './resources/dev';
import { eventsResource, type EventsResource } from './resources/events';
import { gatewayResource, type GatewayResource } from './resources/gateway';
import { guestIntegrationsResource, type GuestIntegrationsResource } from './resources/guest-integrations';
import { idpResource, type IdpResource } from './resources/idp';
import { invitesResource, type InvitesResource } from './resources/invites';
import { membersResource, type MembersResource } from './resources/members';
import { membershipsResource, type MembershipsResource } from './resources/memberships';
import { phasesResource, type PhasesResource } from './resources/phases';
import { publicResource, type PublicResource } from './resources/public';
import { questionsResource, type QuestionsResource } from './resources/questions';
import { usersResource, type UsersResource } from './resources/users';
import { webhooksResource, type WebhooksResource } from './resources/webhooks';
import { workspacesResource, type WorkspacesResource } from './resources/workspaces';

/** A typed Gathercast client: one property per resource. */
export interface GathercastClient {
  accounts: AccountsResource;
  apiKeys: ApiKeysResource;
  broadcast: BroadcastResource;
  content: ContentResource;
  dev: DevResource;
  events: EventsResource;
  gateway: GatewayResource;
  guestIntegrations: GuestIntegrationsResource;
  idp: IdpResource;
  invites: InvitesResource;
  members: MembersResource;
  memberships: MembershipsResource;
  phases: PhasesResource;
  public: PublicResource;
  questions: QuestionsResource;
  users: UsersResource;
  webhooks: WebhooksResource;
  workspaces: WorkspacesResource;
  /** The underlying ts-rest client: `{ status, body, headers }` without throwing. */
  raw: RawClient;
}

/**
 * A typed Gathercast client. Every method resolves to the success body and throws `GathercastError`
 * (status, code, detail, requestId) on a problem answer.
 *
 *   const gc = createClient({ baseUrl, apiKey: process.env.GATHERCAST_API_KEY });
 *   const event = await gc.events.create({ body: { type: 'webinar', title: 'Launch' } });
 */
export function createClient(options: ClientOptions): GathercastClient {
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

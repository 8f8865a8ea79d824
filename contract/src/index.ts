import { accountsContract, idpContract } from './accounts';
import { contentContract, broadcastContract } from './content';
import { eventsContract } from './events';
import { gatewayContract, guestIntegrationsContract } from './gateway';
import { invitesContract } from './invites';
import { membershipsContract, questionsContract, usersContract } from './people';
import { phasesContract } from './phases';
import { devContract, publicContract } from './public';
import { webhooksContract } from './webhooks';
import { apiKeysContract, membersContract, workspacesContract } from './workspaces';

/** The whole Gathercast API, by group (named so declaration files reference the groups, not expand them). */
export type Contract = {
  accounts: typeof accountsContract;
  idp: typeof idpContract;
  public: typeof publicContract;
  gateway: typeof gatewayContract;
  guestIntegrations: typeof guestIntegrationsContract;
  workspaces: typeof workspacesContract;
  members: typeof membersContract;
  apiKeys: typeof apiKeysContract;
  invites: typeof invitesContract;
  events: typeof eventsContract;
  phases: typeof phasesContract;
  users: typeof usersContract;
  memberships: typeof membershipsContract;
  questions: typeof questionsContract;
  webhooks: typeof webhooksContract;
  broadcast: typeof broadcastContract;
  content: typeof contentContract;
  dev: typeof devContract;
};

/** The whole Gathercast API. Keys are the SDK's resource names and the OpenAPI tags. */
export const contract: Contract = {
  accounts: accountsContract,
  idp: idpContract,
  public: publicContract,
  gateway: gatewayContract,
  guestIntegrations: guestIntegrationsContract,
  workspaces: workspacesContract,
  members: membersContract,
  apiKeys: apiKeysContract,
  invites: invitesContract,
  events: eventsContract,
  phases: phasesContract,
  users: usersContract,
  memberships: membershipsContract,
  questions: questionsContract,
  webhooks: webhooksContract,
  broadcast: broadcastContract,
  content: contentContract,
  dev: devContract,
};

export * from './common';
export * from './errors';
export * from './input-rules';
export * from './accounts';
export * from './workspaces';
export * from './invites';
export * from './events';
export * from './phases';
export * from './people';
export * from './webhooks';
export * from './webhook-events';
export * from './gateway';
export * from './content';
export * from './public';
export * from './live';

import { c } from './common';
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

/** The whole Gathercast API. Keys are the SDK's resource names and the OpenAPI tags. */
export const contract = c.router({
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
});
export type Contract = typeof contract;

export * from './common';
export * from './errors';
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

import { accountsContract, idpContract } from './accounts';
import { broadcastContract, contentContract } from './content';
import { chatContract, pollsContract, reactionsContract } from './audience-records';
import { eventsContract } from './events';
import { gatewayContract, guestIntegrationsContract } from './gateway';
import { invitesContract } from './invites';
import { membershipsContract, questionsContract, usersContract } from './people';
import { phasesContract } from './phases';
import { devContract, publicContract } from './public';
import { eventLogContract, webhooksContract } from './webhooks';
import { registrantContract, registrationsContract } from './registrations';
import { attendanceContract } from './attendance';
import { apiKeysContract, membersContract, workspacesContract } from './workspaces';
import {
  liveJoinLinksContract,
  liveParticipantsContract,
  liveRoomContract,
  liveTokensContract,
} from './live-control';

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
  polls: typeof pollsContract;
  reactions: typeof reactionsContract;
  chat: typeof chatContract;
  webhooks: typeof webhooksContract;
  eventLog: typeof eventLogContract;
  broadcast: typeof broadcastContract;
  content: typeof contentContract;
  dev: typeof devContract;
  registrations: typeof registrationsContract;
  registrant: typeof registrantContract;
  attendance: typeof attendanceContract;
  liveTokens: typeof liveTokensContract;
  liveJoinLinks: typeof liveJoinLinksContract;
  liveParticipants: typeof liveParticipantsContract;
  liveRoom: typeof liveRoomContract;
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
  polls: pollsContract,
  reactions: reactionsContract,
  chat: chatContract,
  webhooks: webhooksContract,
  eventLog: eventLogContract,
  broadcast: broadcastContract,
  content: contentContract,
  dev: devContract,
  registrations: registrationsContract,
  registrant: registrantContract,
  attendance: attendanceContract,
  liveTokens: liveTokensContract,
  liveJoinLinks: liveJoinLinksContract,
  liveParticipants: liveParticipantsContract,
  liveRoom: liveRoomContract,
};

export * from './accounts';
export * from './common';
export * from './content';
export * from './errors';
export * from './events';
export * from './gateway';
export * from './input-rules';
export * from './invites';
export * from './live';
export * from './live-codes';
export * from './registrations';
export * from './attendance';
export * from './live-control';
export * from './live-control-schemas';
export * from './people';
export * from './phases';
export * from './public';
export * from './public-schemas';
export * from './webhook-events';
export * from './webhooks';
export * from './workspaces';
export * from './audience-records';
export * from './sdk-routes';

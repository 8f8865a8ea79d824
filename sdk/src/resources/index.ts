import type { RequestCore } from '../core';
import type { RawResources } from '../generated/api';
import { rawResource } from '../resource';
import { routes } from '../routes';
import { accounts } from './accounts';
import { apiKeys } from './apiKeys';
import { broadcast } from './broadcast';
import { content } from './content';
import { dev } from './dev';
import { events } from './events';
import { gateway } from './gateway';
import { guestIntegrations } from './guestIntegrations';
import { idp } from './idp';
import { invites } from './invites';
import { members } from './members';
import { memberships } from './memberships';
import { phases } from './phases';
import { publicApi } from './public';
import { questions } from './questions';
import { users } from './users';
import { webhooks } from './webhooks';
import { workspaces } from './workspaces';

/** Every resource of the API over one request core, one file each. */
export function resources(core: RequestCore) {
  return {
    accounts: accounts(core),
    idp: idp(core),
    public: publicApi(core),
    gateway: gateway(core),
    guestIntegrations: guestIntegrations(core),
    workspaces: workspaces(core),
    members: members(core),
    apiKeys: apiKeys(core),
    invites: invites(core),
    events: events(core),
    phases: phases(core),
    users: users(core),
    memberships: memberships(core),
    questions: questions(core),
    webhooks: webhooks(core),
    broadcast: broadcast(core),
    content: content(core),
    dev: dev(core),
  };
}

export type Resources = ReturnType<typeof resources>;

/** Every route answering the final `{ status, body, headers }`, never thrown, no retries by default. */
export function rawResources(core: RequestCore): RawResources {
  const raw: Record<string, unknown> = {};
  for (const [group, members] of Object.entries(routes)) raw[group] = rawResource(core, members);
  return raw as RawResources;
}

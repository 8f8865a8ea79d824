import type { RawClient, RequestCore, ResourceMethods } from '../core';

/** The `invites` routes of the API; each resolves to the success body or throws GathercastError. */
export type InvitesResource = ResourceMethods<RawClient['invites']>;
export const invitesResource = (core: RequestCore): InvitesResource => core.resource('invites');

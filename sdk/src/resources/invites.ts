import type { RequestCore } from '../core';

/** The `invites` routes of the API; each resolves to the success body or throws GathercastError. */
export const invitesResource = (core: RequestCore) => core.resource('invites');
export type InvitesResource = ReturnType<typeof invitesResource>;

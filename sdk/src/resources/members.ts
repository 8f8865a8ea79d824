import type { RequestCore } from '../core';

/** The `members` routes of the API; each resolves to the success body or throws GathercastError. */
export const membersResource = (core: RequestCore) => core.resource('members');
export type MembersResource = ReturnType<typeof membersResource>;

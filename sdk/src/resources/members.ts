import type { RawClient, RequestCore, ResourceMethods } from '../core';

/** The `members` routes of the API; each resolves to the success body or throws GathercastError. */
export type MembersResource = ResourceMethods<RawClient['members']>;
export const membersResource = (core: RequestCore): MembersResource => core.resource('members');

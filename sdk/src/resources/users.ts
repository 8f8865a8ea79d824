import type { RawClient, RequestCore, ResourceMethods } from '../core';

/** The `users` routes of the API; each resolves to the success body or throws GathercastError. */
export type UsersResource = ResourceMethods<RawClient['users']>;
export const usersResource = (core: RequestCore): UsersResource => core.resource('users');

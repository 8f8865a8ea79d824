import type { RequestCore } from '../core';

/** The `users` routes of the API; each resolves to the success body or throws GathercastError. */
export const usersResource = (core: RequestCore) => core.resource('users');
export type UsersResource = ReturnType<typeof usersResource>;

import type { RequestCore } from '../core';

/** The `accounts` routes of the API; each resolves to the success body or throws GathercastError. */
export const accountsResource = (core: RequestCore) => core.resource('accounts');
export type AccountsResource = ReturnType<typeof accountsResource>;

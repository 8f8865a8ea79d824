import type { RawClient, RequestCore, ResourceMethods } from '../core';

/** The `accounts` routes of the API; each resolves to the success body or throws GathercastError. */
export type AccountsResource = ResourceMethods<RawClient['accounts']>;
export const accountsResource = (core: RequestCore): AccountsResource => core.resource('accounts');

import type { RawClient, RequestCore, ResourceMethods } from '../core';

/** The `apiKeys` routes of the API; each resolves to the success body or throws GathercastError. */
export type ApiKeysResource = ResourceMethods<RawClient['apiKeys']>;
export const apiKeysResource = (core: RequestCore): ApiKeysResource => core.resource('apiKeys');

import type { RequestCore } from '../core';

/** The `apiKeys` routes of the API; each resolves to the success body or throws GathercastError. */
export const apiKeysResource = (core: RequestCore) => core.resource('apiKeys');
export type ApiKeysResource = ReturnType<typeof apiKeysResource>;

import type { RequestCore } from '../core';

/** The `broadcast` routes of the API; each resolves to the success body or throws GathercastError. */
export const broadcastResource = (core: RequestCore) => core.resource('broadcast');
export type BroadcastResource = ReturnType<typeof broadcastResource>;

import type { RawClient, RequestCore, ResourceMethods } from '../core';

/** The `broadcast` routes of the API; each resolves to the success body or throws GathercastError. */
export type BroadcastResource = ResourceMethods<RawClient['broadcast']>;
export const broadcastResource = (core: RequestCore): BroadcastResource => core.resource('broadcast');

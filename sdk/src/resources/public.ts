import type { RawClient, RequestCore, ResourceMethods } from '../core';

/** The `public` routes of the API; each resolves to the success body or throws GathercastError. */
export type PublicResource = ResourceMethods<RawClient['public']>;
export const publicResource = (core: RequestCore): PublicResource => core.resource('public');

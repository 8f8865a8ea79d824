import type { RawClient, RequestCore, ResourceMethods } from '../core';

/** The `dev` routes of the API; each resolves to the success body or throws GathercastError. */
export type DevResource = ResourceMethods<RawClient['dev']>;
export const devResource = (core: RequestCore): DevResource => core.resource('dev');

import type { RawClient, RequestCore, ResourceMethods } from '../core';

/** The `gateway` routes of the API; each resolves to the success body or throws GathercastError. */
export type GatewayResource = ResourceMethods<RawClient['gateway']>;
export const gatewayResource = (core: RequestCore): GatewayResource => core.resource('gateway');

import type { RequestCore } from '../core';

/** The `gateway` routes of the API; each resolves to the success body or throws GathercastError. */
export const gatewayResource = (core: RequestCore) => core.resource('gateway');
export type GatewayResource = ReturnType<typeof gatewayResource>;

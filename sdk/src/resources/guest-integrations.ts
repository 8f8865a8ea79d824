import type { RawClient, RequestCore, ResourceMethods } from '../core';

/** The `guestIntegrations` routes of the API; each resolves to the success body or throws GathercastError. */
export type GuestIntegrationsResource = ResourceMethods<RawClient['guestIntegrations']>;
export const guestIntegrationsResource = (core: RequestCore): GuestIntegrationsResource => core.resource('guestIntegrations');

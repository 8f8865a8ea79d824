import type { RequestCore } from '../core';

/** The `guestIntegrations` routes of the API; each resolves to the success body or throws GathercastError. */
export const guestIntegrationsResource = (core: RequestCore) => core.resource('guestIntegrations');
export type GuestIntegrationsResource = ReturnType<typeof guestIntegrationsResource>;

import type { RequestCore } from '../core';

/** The `idp` routes of the API; each resolves to the success body or throws GathercastError. */
export const idpResource = (core: RequestCore) => core.resource('idp');
export type IdpResource = ReturnType<typeof idpResource>;

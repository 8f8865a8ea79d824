import type { RawClient, RequestCore, ResourceMethods } from '../core';

/** The `idp` routes of the API; each resolves to the success body or throws GathercastError. */
export type IdpResource = ResourceMethods<RawClient['idp']>;
export const idpResource = (core: RequestCore): IdpResource => core.resource('idp');

import type { RequestCore } from '../core';

/** The `dev` routes of the API; each resolves to the success body or throws GathercastError. */
export const devResource = (core: RequestCore) => core.resource('dev');
export type DevResource = ReturnType<typeof devResource>;

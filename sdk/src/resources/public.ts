import type { RequestCore } from '../core';

/** The `public` routes of the API; each resolves to the success body or throws GathercastError. */
export const publicResource = (core: RequestCore) => core.resource('public');
export type PublicResource = ReturnType<typeof publicResource>;

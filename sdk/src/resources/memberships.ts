import type { RequestCore } from '../core';

/** The `memberships` routes of the API; each resolves to the success body or throws GathercastError. */
export const membershipsResource = (core: RequestCore) => core.resource('memberships');
export type MembershipsResource = ReturnType<typeof membershipsResource>;

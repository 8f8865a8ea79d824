import type { RawClient, RequestCore, ResourceMethods } from '../core';

/** The `memberships` routes of the API; each resolves to the success body or throws GathercastError. */
export type MembershipsResource = ResourceMethods<RawClient['memberships']>;
export const membershipsResource = (core: RequestCore): MembershipsResource => core.resource('memberships');

import type { RawClient, RequestCore, ResourceMethods } from '../core';

/** The `workspaces` routes of the API; each resolves to the success body or throws GathercastError. */
export type WorkspacesResource = ResourceMethods<RawClient['workspaces']>;
export const workspacesResource = (core: RequestCore): WorkspacesResource => core.resource('workspaces');

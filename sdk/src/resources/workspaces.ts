import type { RequestCore } from '../core';

/** The `workspaces` routes of the API; each resolves to the success body or throws GathercastError. */
export const workspacesResource = (core: RequestCore) => core.resource('workspaces');
export type WorkspacesResource = ReturnType<typeof workspacesResource>;

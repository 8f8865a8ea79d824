import type { RequestCore } from '../core';

/** The `content` routes of the API; each resolves to the success body or throws GathercastError. */
export const contentResource = (core: RequestCore) => core.resource('content');
export type ContentResource = ReturnType<typeof contentResource>;

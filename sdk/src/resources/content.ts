import type { RawClient, RequestCore, ResourceMethods } from '../core';

/** The `content` routes of the API; each resolves to the success body or throws GathercastError. */
export type ContentResource = ResourceMethods<RawClient['content']>;
export const contentResource = (core: RequestCore): ContentResource => core.resource('content');

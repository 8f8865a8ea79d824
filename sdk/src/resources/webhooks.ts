import type { RawClient, RequestCore, ResourceMethods } from '../core';

/** The `webhooks` routes of the API; each resolves to the success body or throws GathercastError. */
export type WebhooksResource = ResourceMethods<RawClient['webhooks']>;
export const webhooksResource = (core: RequestCore): WebhooksResource => core.resource('webhooks');

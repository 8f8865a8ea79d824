import type { RequestCore } from '../core';

/** The `webhooks` routes of the API; each resolves to the success body or throws GathercastError. */
export const webhooksResource = (core: RequestCore) => core.resource('webhooks');
export type WebhooksResource = ReturnType<typeof webhooksResource>;

import type { RequestCore } from '../core';
import type { WebhooksResource } from '../generated/api';
import { resource } from '../resource';
import { routes } from '../routes';

/** Webhook endpoints and their delivery logs. */
export const webhooks = (core: RequestCore): WebhooksResource =>
  resource<WebhooksResource>(core, routes.webhooks);

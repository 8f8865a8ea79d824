import type { RequestCore } from '../core';
import type { GuestIntegrationsResource } from '../generated/api';
import { resource } from '../resource';
import { routes } from '../routes';

/** Guest integrations: keys that let a partner site mint guest sessions. */
export const guestIntegrations = (core: RequestCore): GuestIntegrationsResource =>
  resource<GuestIntegrationsResource>(core, routes.guestIntegrations);

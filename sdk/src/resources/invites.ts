import type { RequestCore } from '../core';
import type { InvitesResource } from '../generated/api';
import { resource } from '../resource';
import { routes } from '../routes';

/** Invites to a workspace or an event. */
export const invites = (core: RequestCore): InvitesResource =>
  resource<InvitesResource>(core, routes.invites);

import type { RequestCore } from '../core';
import type { MembershipsResource } from '../generated/api';
import { resource } from '../resource';
import { routes } from '../routes';

/** Who takes part in an event, with which role. */
export const memberships = (core: RequestCore): MembershipsResource =>
  resource<MembershipsResource>(core, routes.memberships);

import type { RequestCore } from '../core';
import type { MembersResource } from '../generated/api';
import { resource } from '../resource';
import { routes } from '../routes';

/** Members of a workspace and their roles. */
export const members = (core: RequestCore): MembersResource =>
  resource<MembersResource>(core, routes.members);

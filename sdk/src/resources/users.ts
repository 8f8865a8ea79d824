import type { RequestCore } from '../core';
import type { UsersResource } from '../generated/api';
import { resource } from '../resource';
import { routes } from '../routes';

/** Users of the workspace, keyed by your own `externalSub`. */
export const users = (core: RequestCore): UsersResource => resource<UsersResource>(core, routes.users);

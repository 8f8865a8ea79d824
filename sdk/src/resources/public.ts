import type { RequestCore } from '../core';
import type { PublicResource } from '../generated/api';
import { resource } from '../resource';
import { routes } from '../routes';

/** What anyone may read or do without credentials: public event pages, registration, entry, recaps, help chat. */
export const publicApi = (core: RequestCore): PublicResource => resource<PublicResource>(core, routes.public);

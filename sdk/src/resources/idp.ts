import type { RequestCore } from '../core';
import type { IdpResource } from '../generated/api';
import { resource } from '../resource';
import { routes } from '../routes';

/** Sign-in through the configured identity provider (OpenID Connect). */
export const idp = (core: RequestCore): IdpResource => resource<IdpResource>(core, routes.idp);

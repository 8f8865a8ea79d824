import type { RequestCore } from '../core';
import type { ApiKeysResource } from '../generated/api';
import { resource } from '../resource';
import { routes } from '../routes';

/** Workspace API keys. */
export const apiKeys = (core: RequestCore): ApiKeysResource =>
  resource<ApiKeysResource>(core, routes.apiKeys);

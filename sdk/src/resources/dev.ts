import type { RequestCore } from '../core';
import type { DevResource } from '../generated/api';
import { resource } from '../resource';
import { routes } from '../routes';

/** Development helpers (answer 404 in production). */
export const dev = (core: RequestCore): DevResource => resource<DevResource>(core, routes.dev);

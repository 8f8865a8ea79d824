import type { RequestCore } from '../core';
import type { GatewayResource } from '../generated/api';
import { resource } from '../resource';
import { routes } from '../routes';

/** Tokens for the live gateway (use them with `LiveConnection`) and guest sessions. */
export const gateway = (core: RequestCore): GatewayResource =>
  resource<GatewayResource>(core, routes.gateway);

import type { RequestCore } from '../core';
import type { BroadcastResource } from '../generated/api';
import { resource } from '../resource';
import { routes } from '../routes';

/** The broadcast of an event: going live, pausing, playback. */
export const broadcast = (core: RequestCore): BroadcastResource =>
  resource<BroadcastResource>(core, routes.broadcast);

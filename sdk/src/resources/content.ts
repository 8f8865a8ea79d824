import type { RequestCore } from '../core';
import type { ContentResource } from '../generated/api';
import { resource } from '../resource';
import { routes } from '../routes';

/** Recordings, transcripts and clips of an event. */
export const content = (core: RequestCore): ContentResource =>
  resource<ContentResource>(core, routes.content);

import type { RequestCore } from '../core';
import type { WorkspacesResource } from '../generated/api';
import { resource } from '../resource';
import { routes } from '../routes';

/** Workspaces of the signed-in account, and workspace sessions. */
export const workspaces = (core: RequestCore): WorkspacesResource =>
  resource<WorkspacesResource>(core, routes.workspaces);

import { notFound } from './problem';

/**
 * The tenancy rule, written once: a workspace's resource is read only through the caller's workspace
 * (`… and workspace_id = ?`), and one that is not there, missing or another workspace's, is
 * `not_found` with the same answer, never `forbidden`, so nothing about other tenants leaks.
 * Every lookup of a workspace-owned row ends in `ofWorkspace`.
 */
export function ofWorkspace<T>(row: T | undefined, resource: string): T {
  if (row === undefined) throw notFound(resource);
  return row;
}

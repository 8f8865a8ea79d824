import { readFileSync } from 'node:fs';

/** Set by the bundler (tsup.config.ts) from package.json and `git rev-parse`; absent when run from source. */
declare const __GATHERCAST_BUILD__: { version: string; commit: string; builtAt: string } | undefined;

export interface BuildInfo {
  /** The server package's version. */
  version: string;
  /** The commit it was built from (`BUILD_COMMIT` at runtime wins, e.g. set by the image build); `unknown` if neither. */
  commit: string;
  /** When the bundle was built (ISO 8601), or null when running from source. */
  builtAt: string | null;
  node: string;
}

function sourceVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

let cached: BuildInfo | undefined;

/** What is running: GET /version, the `gathercast_build_info` metric and the startup log line. */
export function buildInfo(env: NodeJS.ProcessEnv = process.env): BuildInfo {
  if (cached) return cached;
  const bundled = typeof __GATHERCAST_BUILD__ === 'object' ? __GATHERCAST_BUILD__ : undefined;
  cached = {
    version: bundled?.version ?? sourceVersion(),
    commit: env.BUILD_COMMIT || bundled?.commit || 'unknown',
    builtAt: bundled?.builtAt ?? null,
    node: process.version,
  };
  return cached;
}

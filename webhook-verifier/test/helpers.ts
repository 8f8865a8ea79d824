import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import * as nodeEsm from '../dist/node.js';
import * as webEsm from '../dist/web.js';

export const packageDir = new URL('..', import.meta.url);
const require = createRequire(import.meta.url);

export type NodeEntry = typeof nodeEsm;
export type WebEntry = typeof webEsm;

/** The four built artifacts, as a consumer would load them. */
export const entries: Record<string, WebEntry> = {
  'node entry (ESM)': nodeEsm,
  'node entry (CJS)': require('../dist/node.cjs') as NodeEntry,
  'web entry (ESM)': webEsm,
  'web entry (CJS)': require('../dist/web.cjs') as WebEntry,
};

export const nodeEntries: Record<string, NodeEntry> = {
  'node entry (ESM)': nodeEsm,
  'node entry (CJS)': require('../dist/node.cjs') as NodeEntry,
};

export interface ValidVector {
  name: string;
  signerSecrets: string[];
  verifierSecrets: string[];
  timestamp: number;
  body: string;
  headers: Record<string, string>;
  now: number;
}

export interface InvalidVector {
  name: string;
  expectedCode: string;
  verifierSecrets: string[];
  body: string;
  headers: Record<string, string>;
  now: number;
}

export const vectors = JSON.parse(readFileSync(new URL('test-vectors.json', packageDir), 'utf8')) as {
  valid: ValidVector[];
  invalid: InvalidVector[];
};

export const reference = vectors.valid[0];
export const SECRET = reference.verifierSecrets[0];
/** The `now` option is in milliseconds; vectors give seconds. */
export const clockAt = (unixSeconds: number) => () => unixSeconds * 1000;
export const atReference = { now: clockAt(reference.now) };

/** Runs `fn` and returns what it threw or rejected with. */
export async function failure(fn: () => unknown): Promise<{ name?: string; code?: string; message: string }> {
  try {
    await fn();
  } catch (error) {
    return error as { code?: string; message: string };
  }
  throw new Error('expected a failure, got success');
}

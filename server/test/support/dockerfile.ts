import { readFileSync } from 'node:fs';
import path from 'node:path';
import { repoDir } from './cluster';

/** One Dockerfile instruction: `RUN pnpm fetch` → { op: 'RUN', args: 'pnpm fetch' }. */
export interface Instruction {
  op: string;
  args: string;
}

/** A build stage: its base image, its name (`AS build`) and its instructions after FROM. */
export interface Stage {
  from: string;
  name: string | undefined;
  instructions: Instruction[];
}

/** The repository's Dockerfile, read as Docker reads it: line continuations joined, comments dropped. */
export function dockerfileStages(file = path.join(repoDir, 'Dockerfile')): Stage[] {
  const lines = readFileSync(file, 'utf8')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const stages: Stage[] = [];
  for (const line of lines) {
    const [op = '', ...rest] = line.split(/\s+/);
    const args = rest.join(' ');
    if (op.toUpperCase() === 'FROM') {
      const [from = '', as, name] = args.split(/\s+/);
      stages.push({ from, name: as?.toUpperCase() === 'AS' ? name : undefined, instructions: [] });
    } else stages.at(-1)?.instructions.push({ op: op.toUpperCase(), args });
  }
  return stages;
}

/** The exec form of CMD, ENTRYPOINT or HEALTHCHECK's CMD: `["a", "b"]` → ['a', 'b']. */
export const execForm = (args: string): string[] => JSON.parse(args.slice(args.indexOf('['))) as string[];

/** `KEY=value KEY2=value2` (ENV, ARG) → their pairs; values are unquoted words in this Dockerfile. */
export function assignments(args: string): [string, string][] {
  return args.split(/\s+/).map((pair) => {
    const at = pair.indexOf('=');
    return at < 0 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)];
  });
}

import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { repoDir } from './cluster';
import { assignments, dockerfileStages, execForm, type Stage } from './dockerfile';

/*
 * The image, built from the Dockerfile without Docker (the test machines have a Docker client and no
 * engine). The rehearsal carries out the Dockerfile's own instructions, so it cannot drift from it:
 * the build stage's RUN lines run as written in a copy of the build context (.dockerignore applied),
 * with the image's paths (/repo, /out, /app) mapped into a temporary directory; the final stage's
 * apt-get pins are installed from Debian's packages (the base image's Debian release, checked); its
 * COPY --from lines assemble /app; the process runs the ENTRYPOINT and CMD as the image's USER, with
 * the image's ENV and nothing of the host's, on the Node of the base image's tag (the npm registry's
 * `node` package). What it cannot show: the base image's own contents, and layer caching.
 */

const run = promisify(execFile);
/** The image's directories, each mapped to one under the rehearsal's root. */
const imagePaths = ['/repo', '/out', '/app'];
/** The base image's users (the official node images create `node` as 1000:1000). */
const imageUsers: Record<string, number> = { root: 0, node: 1000 };

export interface RehearsedImage {
  /** The final stage's WORKDIR, assembled. */
  appDir: string;
  /** The base image's Debian release and Node version, from its tag. */
  base: { node: string; debian: string };
  /** `pnpm` as the build stage installed it (npm install -g pnpm@…). */
  pnpmVersion: string;
  /** Runs ENTRYPOINT + CMD as the image would (`docker run -e …`). */
  start(env: Record<string, string>): ChildProcess;
  /** Runs the HEALTHCHECK's command in the image's environment; resolves with its exit code. */
  healthcheck(env: Record<string, string>): Promise<number | null>;
  remove(): void;
}

export async function rehearseImage(buildArgs: Record<string, string>): Promise<RehearsedImage> {
  const root = mkdtempSync(path.join(tmpdir(), 'gc-image-'));
  chmodSync(root, 0o755);
  const host = (p: string) => (imagePaths.some((d) => p === d || p.startsWith(`${d}/`)) ? root + p : p);
  const imagePath = new RegExp(`(^|[\\s=])(${imagePaths.join('|')})(?=[/\\s*]|$)`, 'g');
  const mapPaths = (command: string) => command.replace(imagePath, (_m, pre, p) => pre + root + p);
  const [build, final] = dockerfileStages() as [Stage, Stage];
  const base = baseOf(final.from);
  const shims = path.join(root, 'shims');
  mkdirSync(shims);

  let pnpmVersion = '';
  let cwd = root;
  const env: Record<string, string> = {};
  for (const { op, args } of build.instructions) {
    if (op === 'WORKDIR') {
      cwd = host(args);
      mkdirSync(cwd, { recursive: true });
    } else if (op === 'ENV') Object.assign(env, Object.fromEntries(assignments(args)));
    else if (op === 'ARG')
      for (const [name, fallback] of assignments(args)) env[name] = buildArgs[name] ?? fallback;
    else if (op === 'COPY') copy(args, cwd, host);
    else if (op === 'RUN') {
      const pnpm = /^npm install -g pnpm@(\S+)$/.exec(args);
      if (pnpm) {
        // The global install, as a shim on PATH: the rehearsal does not change the machine's npm.
        pnpmVersion = pnpm[1]!;
        writeFileSync(path.join(shims, 'pnpm'), `#!/bin/sh\nexec npx -y pnpm@${pnpmVersion} "$@"\n`, {
          mode: 0o755,
        });
        continue;
      }
      const runEnv = { ...process.env, ...env, PATH: `${shims}:${process.env.PATH}` };
      await run('sh', ['-c', mapPaths(args)], { cwd, env: runEnv, maxBuffer: 64 * 1024 * 1024 }).catch(
        (err: { stderr?: string }) => {
          throw new Error(`RUN ${args} failed:\n${err.stderr?.slice(-2000)}`);
        },
      );
    } else throw new Error(`the rehearsal does not know the build stage's ${op} instruction`);
  }

  const app = final.instructions.filter((i) => i.op === 'WORKDIR').at(-1)?.args ?? '/';
  mkdirSync(host(app), { recursive: true });
  const image = {
    env: {} as Record<string, string>,
    user: 0,
    entrypoint: [] as string[],
    cmd: [] as string[],
    health: [] as string[],
  };
  for (const { op, args } of final.instructions) {
    if (op === 'ENV') Object.assign(image.env, Object.fromEntries(assignments(args)));
    else if (op === 'USER') image.user = imageUsers[args] ?? Number(args);
    else if (op === 'ENTRYPOINT') image.entrypoint = execForm(args);
    else if (op === 'CMD') image.cmd = execForm(args);
    else if (op === 'HEALTHCHECK') image.health = execForm(args);
    else if (op === 'COPY') copy(args, host(app), host, build.name);
    else if (op === 'RUN') await installAptPins(args, base.debian);
    else if (op !== 'WORKDIR' && op !== 'EXPOSE') throw new Error(`the rehearsal does not know ${op}`);
  }

  // The base image's Node, where the image's user can run it (the npx cache is root's alone).
  const bin = path.join(root, 'usr/local/bin');
  mkdirSync(bin, { recursive: true });
  const { stdout } = await run('npx', ['-y', `node@${base.node}`, '-p', 'process.execPath']);
  cpSync(stdout.trim(), path.join(bin, 'node'));
  const home = path.join(root, 'home/node');
  mkdirSync(home, { recursive: true });
  chmodSync(home, 0o700);
  await run('chown', [`${image.user}:${image.user}`, home]);
  const containerEnv = (extra: Record<string, string>) => ({
    PATH: `${bin}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin`,
    HOME: home,
    NODE_VERSION: base.node,
    ...image.env,
    ...extra,
  });
  const as = { cwd: host(app), uid: image.user, gid: image.user };
  return {
    appDir: host(app),
    base,
    pnpmVersion,
    start: (extra) =>
      spawn(image.entrypoint[0]!, [...image.entrypoint.slice(1), ...image.cmd], {
        ...as,
        env: containerEnv(extra),
        stdio: ['ignore', 'pipe', 'pipe'],
      }),
    healthcheck: (extra) =>
      new Promise((resolve) =>
        spawn(image.health[0]!, image.health.slice(1), {
          ...as,
          env: containerEnv(extra),
          stdio: 'ignore',
        }).on('exit', resolve),
      ),
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
}

/** `node:24.21.0-bookworm-slim` → Node 24.21.0 on Debian bookworm. */
function baseOf(from: string) {
  const tag = /^node:(\d+\.\d+\.\d+)-([a-z]+)/.exec(from);
  if (!tag) throw new Error(`the final stage's base ${from} is not an exact node:<version>-<debian> tag`);
  return { node: tag[1]!, debian: tag[2]! };
}

/**
 * COPY: from the build context (.dockerignore applied) or, with --from, from a stage's paths. A
 * destination ending in `/` (or several sources) is a directory to copy into; `.` copies the
 * context's contents.
 */
function copy(args: string, cwd: string, host: (p: string) => string, stage?: string) {
  const words = args.split(/\s+/);
  const from = words[0]?.startsWith('--from=') ? words.shift()!.slice('--from='.length) : undefined;
  if (from !== undefined && from !== stage) throw new Error(`COPY --from=${from}: no such stage`);
  const dest = path.resolve(cwd, words.pop()!);
  const into = words.length > 1 || args.trim().endsWith('/');
  // A stage's files are copied as they are; only the build context has a .dockerignore.
  const ignored = from === undefined ? dockerignore() : () => false;
  for (const src of words) {
    const source = from ? host(src) : path.join(repoDir, src);
    const target = src === '.' ? dest : into ? path.join(dest, path.basename(src)) : dest;
    cpSync(source, target, {
      recursive: true,
      verbatimSymlinks: true,
      filter: (p) => !ignored(path.relative(repoDir, p)),
    });
  }
}

/** Whether a path of the build context is left out by .dockerignore (Docker's patterns: `**`, `*`). */
function dockerignore(): (relative: string) => boolean {
  const patterns = readFileSync(path.join(repoDir, '.dockerignore'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((glob) => {
      const source = glob
        .replace(/[.+^${}()|[\]\\]/g, '\\$&')
        .split('**/')
        .map((part) => part.replace(/\*/g, '[^/]*'))
        .join('(?:.*/)?');
      return new RegExp(`^${source}(?:/.*)?$`);
    });
  return (relative) => relative !== '' && patterns.some((p) => p.test(relative));
}

/**
 * The final stage's `apt-get install … pkg=version` line, on this machine: it must run the base
 * image's Debian release (so the pins mean the same packages), and each pinned version must be one
 * Debian has — else the image build would fail — and is installed here for the process to use.
 */
async function installAptPins(command: string, debian: string) {
  const install = /apt-get install ([^&]+)/.exec(command);
  if (!install) throw new Error(`the rehearsal carries out apt-get installs only, not: RUN ${command}`);
  const release = /VERSION_CODENAME=(\w+)/.exec(readFileSync('/etc/os-release', 'utf8'))?.[1];
  if (release !== debian)
    throw new Error(
      `this machine runs Debian ${release}, the image ${debian}: its apt pins cannot be checked here`,
    );
  const pins = install[1]!.split(/\s+/).filter((w) => w && !w.startsWith('-'));
  const offers = async (name: string) =>
    (await run('apt-cache', ['madison', name])).stdout.split('\n').map((l) => l.split('|')[1]?.trim());
  for (const pin of pins) {
    const [name, version] = pin.split('=') as [string, string | undefined];
    let offered = await offers(name);
    // No package lists yet on this machine: read them once, as the Dockerfile's line does.
    if (!offered.some(Boolean)) {
      await run('apt-get', ['update']);
      offered = await offers(name);
    }
    if (version && !offered.includes(version))
      throw new Error(
        `${name}=${version} is not in Debian ${debian} (it offers ${offered.filter(Boolean).join(', ')}): the image build would fail`,
      );
  }
  await run('apt-get', ['install', '-y', '--no-install-recommends', ...pins], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

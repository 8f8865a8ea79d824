// What every bench in bench/ starts and stops, written once: import from here.
import { loadavg } from 'node:os';

export { freshDatabase, type Postgres, type ScratchDatabase, startPostgres, withDatabase } from './database';
export {
  freePort,
  relayStderr,
  type ServerOptions,
  type ServerProcess,
  serverDir,
  sleep,
  startServer,
} from './server';
export { exited, interrupted, onStop, stopAll, stopChild, track } from './stops';

/** The machine's load average (1, 5, 15 min), two decimals: printed beside every figure. */
export const load = () => loadavg().map((x) => +x.toFixed(2));

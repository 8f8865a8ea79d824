/** What coalescing needs of a socket: node's cork/uncork (a net.Socket, a TLS socket). */
export interface Corkable {
  cork(): void;
  uncork(): void;
}

/** Sockets corked until the turn ends. */
const held = new Set<Corkable>();
/** Sockets written once this turn, uncorked: their next write in the turn is held. */
const written = new Set<Corkable>();
let flushScheduled = false;

function flushAll(): void {
  flushScheduled = false;
  for (const socket of held) socket.uncork();
  held.clear();
  written.clear();
}

function scheduleFlush(): void {
  if (!flushScheduled) {
    flushScheduled = true;
    setImmediate(flushAll);
  }
}

/**
 * Holds the socket's writes until the end of this turn of the event loop, from this one on (the
 * upgrade's 101, then the welcome and the snapshot: one write per join).
 */
export function holdUntilTurnEnds(socket: Corkable): void {
  if (held.has(socket)) return;
  socket.cork();
  held.add(socket);
  scheduleFlush();
}

/**
 * Called before each write of a message: a socket's first write of a turn goes out at once, the
 * following ones of the same turn are held until it ends. A burst of messages delivered in one turn
 * (a thousand questions asked at once, each fanned out to every viewer) then leaves each socket as
 * two writes instead of one per message: a write is a syscall on the server and a wake-up on the
 * client, and at N messages × N sockets those dominate. A lone message fanned out to N sockets is
 * written socket by socket as the loop reaches it: held, the first viewer would wait for the whole
 * loop over the audience before anything left.
 */
export function coalesceAfterFirstWrite(socket: Corkable): void {
  if (held.has(socket)) return;
  if (written.has(socket)) holdUntilTurnEnds(socket);
  else {
    written.add(socket);
    scheduleFlush();
  }
}

/** What coalescing needs of a socket: node's cork/uncork (a net.Socket, a TLS socket). */
export interface Corkable {
  cork(): void;
  uncork(): void;
}

/**
 * A turn that starts within this long of the previous turn's flush continues a burst: a socket
 * written in that turn is not quiet yet.
 */
const burstGapMs = 10;

/** Sockets corked until the turn ends. */
const held = new Set<Corkable>();
/** Sockets written this turn (held or not), and those written in the turn before when it was part of a burst. */
let written = new Set<Corkable>();
let writtenBefore = new Set<Corkable>();
let turnOpen = false;
let lastFlushAt = Number.NEGATIVE_INFINITY;

/** No turn has followed the last flush within the burst gap: the sockets it wrote are quiet again. */
const burstOver = () => performance.now() - lastFlushAt > burstGapMs;

/**
 * Forgets the last turn's sockets once the burst gap has passed with no turn after it: otherwise a
 * burst's sockets (an audience that then left) would stay referenced until something is written again.
 * One timer, re-armed by each flush.
 */
let quietTimer: NodeJS.Timeout | undefined;
function forgetQuietBurst(): void {
  if (!turnOpen && burstOver()) writtenBefore = new Set();
  else quietTimer?.refresh();
}

function flushAll(): void {
  turnOpen = false;
  for (const socket of held) socket.uncork();
  held.clear();
  writtenBefore = written;
  written = new Set();
  lastFlushAt = performance.now();
  if (quietTimer) quietTimer.refresh();
  else quietTimer = setTimeout(forgetQuietBurst, burstGapMs + 1).unref();
}

/** How many sockets the coalescing holds a reference to (held, or remembered as part of a burst). */
export function rememberedSockets(): number {
  return new Set([...held, ...written, ...writtenBefore]).size;
}

/** The first write of a turn schedules its flush (and forgets the previous turn if it was long ago). */
function openTurn(): void {
  if (turnOpen) return;
  turnOpen = true;
  if (burstOver()) writtenBefore = new Set();
  setImmediate(flushAll);
}

/**
 * Holds the socket's writes until the end of this turn of the event loop, from this one on (the
 * upgrade's 101, then the welcome and the snapshot: one write per join).
 */
export function holdUntilTurnEnds(socket: Corkable): void {
  openTurn();
  written.add(socket);
  if (held.has(socket)) return;
  socket.cork();
  held.add(socket);
}

/**
 * Called before each write of a message. A quiet socket (nothing written this turn, nor in the turn
 * just before) writes at once; otherwise its writes are held until the turn ends. A lone message
 * fanned out to N sockets is then written socket by socket as the loop reaches it (held, the first
 * viewer would wait for the whole loop over the audience before anything left), while a burst of
 * messages (a thousand questions asked at once, each fanned out to every viewer) leaves each socket
 * as one write per turn: a write is a syscall on the server and a wake-up on the client, and at
 * N messages × N sockets those dominate.
 */
export function coalesceWrites(socket: Corkable): void {
  openTurn();
  if (held.has(socket)) return;
  if (written.has(socket) || writtenBefore.has(socket)) holdUntilTurnEnds(socket);
  else written.add(socket);
}

import { type LiveServerMessage, liveCloseCodes } from '@gathercast/contract';
import type { GatewayTokens } from '../gateway/tokens';
import { liveJoins } from '../lib/metrics';
import type { LiveConnection } from './connection';
import type { LiveDeps } from './deps';
import { castOf, type LiveEvent, roleIn } from './event-state';
import { lobbySnapshot, lobbyStateAtConnect } from './lobby';
import { isModerator, type MediaGrant, phaseGrant, subjectOf } from './media';
import { moderationSnapshot } from './moderation';
import type { PhaseChanges } from './phase-changes';
import { pollSnapshot } from './polls';
import type { LiveResumes, ResumeRequest } from './resume';
import type { LiveRoom } from './room';
import { isTablePhase } from './tables';

/** What a socket's first moments need from the gateway (which implements it). */
export interface WelcomeDeps extends LiveDeps {
  /** Signs each new session's resume secret. */
  tokens: Pick<GatewayTokens, 'resumeSecret'>;
  /** Holds a lobby waiter until a host decides. */
  lobbyWait(conn: LiveConnection): Promise<void>;
  phaseChanges: Pick<PhaseChanges, 'seatAll' | 'scheduleRotation'>;
  resumes: Pick<LiveResumes, 'backlog' | 'resumed'>;
}

const welcomeOf = async (
  gw: WelcomeDeps,
  conn: LiveConnection,
  event: LiveEvent,
  media: MediaGrant,
  resumed: { after: number; replayed: number } | null = null,
  /** A resume secret this socket proved it holds: given back as it is (no new signature per resume). */
  secret?: string,
): Promise<LiveServerMessage> => ({
  type: 'welcome',
  identity: conn.identity(),
  event: { id: event.id, title: event.title, status: event.status },
  activePhase: event.activePhase
    ? {
        id: event.activePhase.id,
        position: event.activePhase.position,
        modality: event.activePhase.modality,
        status: event.activePhase.status,
      }
    : null,
  cast: castOf(event),
  media,
  lobby: conn.lobby,
  lastSeq: conn.lastSeq,
  resume: secret ? resumeOf(gw, secret) : await freshResume(gw, conn),
  resumed,
});

/**
 * A lobby waiter's secret resumes nothing: it was never sent the room's messages, so there is no
 * history it may ask for; `lobby.admitted` brings the secret of the session it then joins.
 */
const noResume = Number.MAX_SAFE_INTEGER;

const resumeOf = (gw: WelcomeDeps, secret: string) => ({
  secret,
  windowMs: gw.ctx.config.liveHistory.windowMs,
});

/** A new session's resume secret: it may ask for nothing before the position the socket starts after. */
const freshResume = async (gw: WelcomeDeps, conn: LiveConnection) =>
  resumeOf(
    gw,
    await gw.tokens.resumeSecret(conn.eventId, conn.participantId, conn.lobby ? noResume : conn.lastSeq),
  );

/**
 * A new socket's first moments: the welcome (or the lobby), then presence (participant.joined on
 * the participant's first connection anywhere), the current banner, hands and polls (and lobby
 * waiters for hosts), and a table in a breakout or rotation. With `admitted` the same for a lobby
 * waiter a host just let in, `lobby.admitted` taking the welcome's place.
 */
export async function welcomeConnection(
  gw: WelcomeDeps,
  room: LiveRoom,
  conn: LiveConnection,
  event: LiveEvent,
  { admitted = false, resume }: { admitted?: boolean; resume?: ResumeRequest } = {},
): Promise<void> {
  const { config, pool } = gw.ctx;
  // A client that gave up waiting (a crowd reconnecting to a busy process) costs nothing more.
  if (conn.closed) return;
  conn.role = roleIn(event, conn.claims.storedRole);
  // The socket is registered already: every message numbered after this position reaches it live. A
  // resume takes its position from the history instead (below), and takes it here only if that fails.
  const readPosition = async () => {
    conn.lastSeq = await room.position.lastSeq();
  };
  if (!admitted && !resume) await readPosition();
  if (!admitted) {
    const lobby = await lobbyStateAtConnect(pool, event, conn.claims, conn.role);
    if (lobby !== 'none') {
      if (resume) await readPosition();
      conn.lobby = true;
      conn.sendWelcome(
        await welcomeOf(gw, conn, event, phaseGrant(config, subjectOf(conn), null) as MediaGrant),
      );
      conn.release();
      if (lobby === 'denied') {
        conn.lobby = false;
        conn.send({ type: 'lobby.denied' });
        conn.close(liveCloseCodes.lobbyDenied, 'denied by a host');
        return;
      }
      await gw.lobbyWait(conn);
      return;
    }
  }
  if (conn.closed) return;
  const modality = event.activePhase?.modality ?? null;
  const media = await phaseGrant(config, subjectOf(conn), modality);
  const backlog = resume && !admitted ? await gw.resumes.backlog(event.id, conn.participantId, resume) : null;
  if (admitted) {
    // Joined from here on: the room's messages numbered after this position reach it, nothing older.
    conn.lastSeq = Math.max(conn.lastSeq, await room.position.lastSeq());
    conn.lobby = false;
    conn.send({ type: 'lobby.admitted', media, resume: await freshResume(gw, conn) });
  } else if (backlog) {
    // What this socket's role may see of it (presence rights are read with the role it has now).
    backlog.envelopes = backlog.envelopes.filter((e) => e.message && conn.receives(e.target));
    conn.lastSeq = resume!.after;
    const resumed = { after: resume!.after, replayed: backlog.envelopes.length };
    conn.sendWelcome(await welcomeOf(gw, conn, event, media, resumed, resume!.secret));
  } else {
    if (resume) await readPosition();
    conn.sendWelcome(await welcomeOf(gw, conn, event, media));
  }
  if (conn.closed) return;
  conn.joined = true;
  liveJoins.inc();
  if (backlog) {
    // A resume within the window finds the participant still present (its leave is held): no joined.
    await joinPresence(gw, conn, event, conn.openedAt);
    // Present here now: the dropped socket's held leave (on whichever process) can run without a left.
    await gw.resumes.resumed(event.id, conn.participantId);
    // Exactly what it missed, in order; live messages queued meanwhile with a seq already sent are skipped.
    for (const e of backlog.envelopes) conn.sendNow({ ...e.message!, seq: e.seq });
    conn.lastSeq = Math.max(conn.lastSeq, backlog.lastSeq);
    conn.sendNow(await room.audience.current());
    conn.release();
    await seatAtTable(gw, conn, event);
    return;
  }
  // Written while the snapshot and counts go out, as early as before: a phase that starts a moment
  // after the welcome finds the participant present on every process.
  // In the event since the socket opened, or, for a lobby waiter, since the host let it in.
  const joining = joinPresence(gw, conn, event, admitted ? new Date() : conn.openedAt);
  joining.catch(() => {}); // awaited below; a snapshot failure first must not leave it unhandled
  if (resume && !admitted)
    conn.sendNow({
      type: 'error',
      code: 'resume_failed',
      detail:
        'The messages since your last seq are no longer kept (or the resume secret is not yours); starting afresh',
    });
  // The state as of the socket's seq (exact whenever it is read: see JoinSnapshots) and the counts, right
  // behind the welcome: a storm's joiners find both at hand, so the upgrade's 101, the welcome and these
  // leave in one write. A fresh socket shares the snapshot of its seq; an admitted waiter reads its own.
  const shared = admitted
    ? [...(await moderationSnapshot(pool, event.id)), ...(await pollSnapshot(pool, event.id))]
    : await room.snapshot.get(conn.lastSeq);
  const snapshot = [...shared, ...(isModerator(conn.role) ? await lobbySnapshot(pool, event.id) : [])];
  for (const message of snapshot) conn.sendNow(message);
  conn.sendNow(await room.audience.current());
  await joining;
  // Messages fanned out meanwhile follow the snapshot, in order.
  conn.release();
  await seatAtTable(gw, conn, event);
}

/**
 * The socket counts in presence; a join that failed (its group's transaction did not commit) does
 * not, so the socket's close later does not take away a connection it never added.
 */
async function joinPresence(
  gw: WelcomeDeps,
  conn: LiveConnection,
  event: LiveEvent,
  at: Date,
): Promise<void> {
  try {
    await gw.presence.join(conn.workspaceId, event.id, conn.presenceInfo(), at);
  } catch (err) {
    conn.joined = false;
    throw err;
  }
}

/** In a breakout or rotation a participant's socket gets its table (a resumed one too: seats are per socket). */
async function seatAtTable(gw: WelcomeDeps, conn: LiveConnection, event: LiveEvent): Promise<void> {
  const phase = event.activePhase;
  if (isTablePhase(phase) && conn.role === 'participant') {
    await gw.phaseChanges.seatAll(event, phase, [conn]);
    gw.phaseChanges.scheduleRotation(event);
  }
}

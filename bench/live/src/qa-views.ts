// What each viewer of the Q&A scenario has seen: the questions broadcast to it and its last vote
// tally per question. With N viewers N² `question.created` and N² `question.updated` frames reach the
// load generator (2 million at 1,000), so a frame is not parsed as JSON: only its type and the ids
// and numbers needed are read from the bytes.

/** Marks the asker in a question's text: `qa#<viewer index>`. */
export const askMarker = 'qa#';

const questionType = Buffer.from('"type":"question.');
const errorType = Buffer.from('"type":"error"');
const idKey = Buffer.from('"id":"');
const questionIdKey = Buffer.from('"questionId":"');
const votesKey = Buffer.from('"votes":');
const codeKey = Buffer.from('"code":"');
const askerKey = Buffer.from(askMarker);
const uuidLength = 36;
const c = 'c'.charCodeAt(0);
const u = 'u'.charCodeAt(0);

/** The decimal number at `at` (digits only), -1 when there is none. */
function numberAt(data: Buffer, at: number): number {
  let n = -1;
  for (let j = at; data[j]! >= 48 && data[j]! <= 57; j++) n = (n < 0 ? 0 : n * 10) + data[j]! - 48;
  return n;
}

export class QaViews {
  /** Asker index → its question's id, once any viewer saw it broadcast. */
  readonly idOf: (string | undefined)[];
  /** Question id → asker index. */
  readonly askerOf = new Map<string, number>();
  /** seen[i * n + q]: viewer i was sent question q's `question.created`. */
  private readonly seen: Uint8Array;
  /** Questions each viewer was sent. */
  readonly createdCount: Int32Array;
  /** tally[i * n + q]: the votes of viewer i's last `question.updated` for question q, -1 before one. */
  private readonly tally: Int32Array;
  /** When that last `question.updated` arrived (performance.now). */
  private readonly tallyAt: Float64Array;
  createdFrames = 0;
  updatedFrames = 0;
  /** `question.created` frames for a question the viewer had already been sent. */
  duplicateCreated = 0;
  /** `question.updated` frames naming a question no viewer had been sent. */
  unknownUpdates = 0;
  /** Error codes the gateway answered, with how many viewers got each. */
  readonly errors = new Map<string, number>();
  /** The last `question.created` any viewer was sent (performance.now). */
  lastCreatedAt = 0;

  /**
   * `onSeen(i, asker, id)`: viewer i was just sent the question of `asker` (the scenario votes from it).
   */
  constructor(
    readonly n: number,
    private readonly onSeen: (i: number, asker: number, id: string) => void,
  ) {
    this.idOf = new Array(n);
    this.seen = new Uint8Array(n * n);
    this.createdCount = new Int32Array(n);
    this.tally = new Int32Array(n * n).fill(-1);
    this.tallyAt = new Float64Array(n * n);
  }

  /** One frame a viewer received after its welcome. */
  frame(i: number, data: Buffer): void {
    const t = data.indexOf(questionType);
    if (t < 0) {
      if (data.indexOf(errorType) >= 0) this.error(data);
      return;
    }
    const kind = data[t + questionType.length];
    if (kind === c) this.created(i, data);
    else if (kind === u) this.updated(i, data);
  }

  private created(i: number, data: Buffer): void {
    this.createdFrames++;
    const idAt = data.indexOf(idKey);
    const askerAt = data.indexOf(askerKey);
    if (idAt < 0 || askerAt < 0) return;
    const q = numberAt(data, askerAt + askerKey.length);
    if (q < 0 || q >= this.n) return;
    let id = this.idOf[q];
    if (id === undefined) {
      id = data.toString('latin1', idAt + idKey.length, idAt + idKey.length + uuidLength);
      this.idOf[q] = id;
      this.askerOf.set(id, q);
    }
    this.lastCreatedAt = performance.now();
    const at = i * this.n + q;
    if (this.seen[at]) {
      this.duplicateCreated++;
      return;
    }
    this.seen[at] = 1;
    this.createdCount[i]!++;
    this.onSeen(i, q, id);
  }

  private updated(i: number, data: Buffer): void {
    this.updatedFrames++;
    const idAt = data.indexOf(questionIdKey);
    const votesAt = data.indexOf(votesKey);
    if (idAt < 0 || votesAt < 0) return;
    const start = idAt + questionIdKey.length;
    const q = this.askerOf.get(data.toString('latin1', start, start + uuidLength));
    if (q === undefined) {
      this.unknownUpdates++;
      return;
    }
    const at = i * this.n + q;
    this.tally[at] = numberAt(data, votesAt + votesKey.length);
    this.tallyAt[at] = performance.now();
  }

  private error(data: Buffer): void {
    const at = data.indexOf(codeKey);
    const end = at < 0 ? -1 : data.indexOf('"', at + codeKey.length);
    const code = end < 0 ? 'unknown' : data.toString('latin1', at + codeKey.length, end);
    this.errors.set(code, (this.errors.get(code) ?? 0) + 1);
  }

  /** Viewers that were sent every question. */
  viewersWithAllQuestions(): number {
    let all = 0;
    for (let i = 0; i < this.n; i++) if (this.createdCount[i] === this.n) all++;
    return all;
  }

  /**
   * Against the stored tallies (asker index → votes): how many viewers' last tallies all equal them,
   * and when the last of the tallies that made them equal arrived (performance.now; 0 when none did).
   * A question the viewer saw with no update yet reads 0 votes (its `question.created` said so).
   */
  converged(stored: Int32Array): { viewers: number; lastAt: number } {
    let viewers = 0;
    let lastAt = 0;
    for (let i = 0; i < this.n; i++) {
      let all = true;
      for (let q = 0; q < this.n && all; q++) {
        const at = i * this.n + q;
        const votes = this.tally[at]! >= 0 ? this.tally[at]! : this.seen[at] ? 0 : -1;
        if (votes !== stored[q]) all = false;
        else if (this.tallyAt[at]! > lastAt) lastAt = this.tallyAt[at]!;
      }
      if (all) viewers++;
    }
    return { viewers, lastAt };
  }
}

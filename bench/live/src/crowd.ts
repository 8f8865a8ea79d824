// The audience as raw WebSocket clients (the load generator must cost as little as possible: it
// shares the 2 cores with the server). Each viewer notes when its welcome arrived and when each
// host message reached it; host messages carry a marker `bench#<k>` so a receipt is found without
// parsing JSON.
import WebSocket from 'ws';
import { inPool, percentile } from './stats';

export const marker = 'bench#';

/** What the host says, in order: 10 chat messages, an announcement and a poll. */
export const hostScript: { label: string; message: Record<string, unknown> }[] = [
  ...Array.from({ length: 10 }, (_, k) => ({
    label: `chat ${k + 1}`,
    message: {
      type: 'chat.send',
      text: `${marker}${k} Welcome everyone, we start in a minute (${k + 1}/10)`,
    },
  })),
  {
    label: 'announcement',
    message: { type: 'announcement.send', text: `${marker}10 Slides are in the resources tab` },
  },
  {
    label: 'poll',
    message: {
      type: 'poll.create',
      question: `${marker}11 Where are you joining from?`,
      options: ['Europe', 'Americas', 'Asia', 'Elsewhere'],
    },
  },
];

export interface JoinFigures {
  joined: number;
  failed: number;
  /** A few failure reasons, for the report. */
  failures: string[];
  /** From the first socket opened to the last welcome. */
  wallMs: number;
  p50: number;
  p99: number;
  /** Bytes of the first welcome received (the baseline sends one of the same size). */
  welcomeBytes: number;
}

export interface FanOutFigures {
  label: string;
  /** The first viewer's receipt: the gateway's own path (publish, numbering) before the writes. */
  first: number;
  p50: number;
  p99: number;
  max: number;
  /** Sockets still open that had not received it within the timeout. */
  missing: number;
}

/** A host's socket: logs any error the gateway answers (a refused message would otherwise just time out). */
export function openHost(wsBase: string, token: string): Promise<WebSocket> {
  const ws = new WebSocket(`${wsBase}/v1/live?token=${token}`);
  return new Promise((resolve, reject) => {
    ws.once('message', (data: Buffer) => {
      if (!data.includes('"type":"welcome"')) return reject(new Error(`host got ${data} before welcome`));
      ws.on('message', (m: Buffer) => {
        if (m.includes('"type":"error"')) console.error(`host: the gateway answered ${m}`);
      });
      resolve(ws);
    });
    ws.once('error', reject);
    ws.once('unexpected-response', (_req, res) =>
      reject(new Error(`host upgrade refused: ${res.statusCode}`)),
    );
  });
}

export class Crowd {
  private readonly sockets: (WebSocket | undefined)[];
  /** receipts[k][i]: when host message k reached viewer i (performance.now), 0 before. */
  private readonly receipts: Float64Array[];
  private readonly counts: Int32Array;
  /** The first copy of each host message as a viewer received it (the baseline sends the same). */
  readonly captured: string[] = [];
  private open = 0;
  private wake: (() => void) | undefined;

  /**
   * `onFrame`: a scenario's own handling of every frame after the welcome (instead of looking for the
   * host's markers), called with the viewer's index.
   */
  constructor(
    readonly size: number,
    private readonly onFrame?: (i: number, data: Buffer) => void,
  ) {
    this.sockets = new Array(size);
    this.receipts = hostScript.map(() => new Float64Array(size));
    this.counts = new Int32Array(hostScript.length);
  }

  /** Opens every viewer's socket, `concurrency` at a time; join time = socket opened to `welcome`. */
  async join(
    wsBase: string,
    token: (i: number) => Promise<string>,
    concurrency: number,
  ): Promise<JoinFigures> {
    const times = new Float64Array(this.size);
    const failures: string[] = [];
    let failed = 0;
    let welcomeBytes = 0;
    const started = performance.now();
    let lastWelcome = started;
    await inPool(this.size, concurrency, async (i) => {
      const url = `${wsBase}/v1/live?token=${await token(i)}`;
      const t0 = performance.now();
      try {
        const bytes = await this.connect(i, url);
        lastWelcome = performance.now();
        times[i] = lastWelcome - t0;
        welcomeBytes ||= bytes;
      } catch (err) {
        failed++;
        if (failures.length < 5) failures.push(err instanceof Error ? err.message : String(err));
      }
    });
    const ok = times.filter((t) => t > 0);
    return {
      joined: ok.length,
      failed,
      failures,
      wallMs: lastWelcome - started,
      p50: percentile(ok, 50),
      p99: percentile(ok, 99),
      welcomeBytes,
    };
  }

  private connect(i: number, url: string): Promise<number> {
    const ws = new WebSocket(url, { perMessageDeflate: false });
    return new Promise((resolve, reject) => {
      let welcomed = false;
      ws.on('message', (data: Buffer) => {
        if (welcomed) return this.onFrame ? this.onFrame(i, data) : this.received(i, data);
        if (!data.includes('"type":"welcome"')) {
          ws.terminate();
          return reject(new Error(`first message was not welcome: ${data.subarray(0, 200)}`));
        }
        welcomed = true;
        this.sockets[i] = ws;
        this.open++;
        resolve(data.length);
      });
      ws.once('close', (code) => {
        if (!welcomed) return reject(new Error(`closed ${code} before welcome`));
        this.sockets[i] = undefined;
        this.open--;
        this.wake?.();
      });
      ws.once('error', (err) => {
        if (!welcomed) reject(err);
      });
      ws.once('unexpected-response', (_req, res) => {
        reject(new Error(`upgrade refused: ${res.statusCode}`));
        ws.terminate();
      });
    });
  }

  private received(i: number, data: Buffer): void {
    const at = performance.now();
    const p = data.indexOf(marker);
    if (p < 0) return;
    let k = 0;
    for (let j = p + marker.length; data[j]! >= 48 && data[j]! <= 57; j++) k = k * 10 + data[j]! - 48;
    const receipts = this.receipts[k];
    if (receipts?.[i] !== 0) return;
    receipts[i] = at;
    this.captured[k] ??= data.toString('utf8');
    if (++this.counts[k]! >= this.open) this.wake?.();
  }

  /** The host sends message k; resolves when every open socket has it, or after `timeoutMs`. */
  async fanOut(host: WebSocket, k: number, timeoutMs = 30_000): Promise<FanOutFigures> {
    const sentAt = performance.now();
    host.send(JSON.stringify(hostScript[k]!.message));
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = () => {
        if (this.counts[k]! >= this.open) done();
      };
      this.wake();
    });
    this.wake = undefined;
    const latencies: number[] = [];
    const receipts = this.receipts[k]!;
    let missing = 0;
    for (let i = 0; i < this.size; i++) {
      if (receipts[i]! > 0) latencies.push(receipts[i]! - sentAt);
      else if (this.sockets[i]) missing++;
    }
    return {
      label: hostScript[k]!.label,
      first: percentile(latencies, 0),
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      max: percentile(latencies, 100),
      missing,
    };
  }

  /** Viewer i sends a message; false when its socket is not open. */
  send(i: number, message: string): boolean {
    const ws = this.sockets[i];
    if (ws?.readyState !== WebSocket.OPEN) return false;
    ws.send(message);
    return true;
  }

  /** Whether viewer i's socket is open. */
  isOpen(i: number): boolean {
    return this.sockets[i] !== undefined;
  }

  /** Sockets still open. */
  get connected(): number {
    return this.open;
  }

  /** Drops every socket at once (no close handshake: the bench is done with them). */
  terminate(): void {
    for (const ws of this.sockets) ws?.terminate();
  }
}

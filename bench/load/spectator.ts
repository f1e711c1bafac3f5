// A live-tape spectator speaking Engine.IO v4 / Socket.IO v5 directly (what socket.io-client
// would do for a browser, minus the parsing): it answers pings, connects with a token, subscribes
// to one pod, acknowledges backlog pages as soon as they arrive (as the browser does), and checks
// that seqs arrive in order. By default it reads only the seqs out of a frame's bytes
// (`"podId":"…","seq":N`, the order the server writes an event's fields in); `full` parses the
// frame as the browser would and hands the events over (the latency probe, the catch-up timer).
import { openRawWebSocket, type RawWebSocket } from "./raw-websocket";
import type { TapeEvent } from "../../server/wire/events";

export type SpectatorOptions = {
  token: string;
  podId: string;
  afterSeq: number;
  full?: boolean;
  /** `full` only: each frame's events, with when its bytes arrived (performance.now()). */
  onEvents?: (events: TapeEvent[], at: number) => void;
  onLive?: (seq: number, at: number) => void;
};

export type SpectatorState = {
  /** Events taken in order, and the last seq taken. */
  received: number;
  last: number;
  gaps: number;
  duplicates: number;
  frames: number;
  /** Change notices of the pod's view ("pod:delta", server/realtime/state-deltas.ts), counted, not read. */
  notices: number;
  live: boolean;
  /** When tape:subscribe went out (performance.now()). */
  subscribedAt: number;
  /** tape:error, connect_error, or why the connection ended (null while open). */
  errors: string[];
  closed: string | null;
};

export type Spectator = { state: SpectatorState; close: () => void };

const EVENTS = Buffer.from('"tape:events"');
const LIVE = Buffer.from('"tape:live"');
const DELTA = Buffer.from('"pod:delta"');
const CH_0 = 0x30;

/** The seq after `at` in `buf` (digits up to the next non-digit). */
function readInt(buf: Buffer, at: number): number {
  let n = 0;
  for (let c = buf[at]!; c >= CH_0 && c <= CH_0 + 9; c = buf[++at]!) n = n * 10 + (c - CH_0);
  return n;
}

/** Connects and subscribes; resolves once the subscription is sent (rejects if the connection is refused). */
export function openSpectator(base: string, opts: SpectatorOptions): Promise<Spectator> {
  const state: SpectatorState = {
    received: 0,
    last: opts.afterSeq,
    gaps: 0,
    duplicates: 0,
    frames: 0,
    notices: 0,
    live: false,
    subscribedAt: 0,
    errors: [],
    closed: null,
  };
  const seqKey = Buffer.from(`"podId":${JSON.stringify(opts.podId)},"seq":`);
  let ws: RawWebSocket | null = null;
  let settle: { ok: () => void; fail: (e: Error) => void } | null = null;

  const take = (seq: number) => {
    if (seq <= state.last) state.duplicates++;
    else {
      if (seq !== state.last + 1) state.gaps++;
      state.last = seq;
      state.received++;
    }
  };
  const onEvent = (payload: Buffer, at: number) => {
    let i = 2; // after "42"
    let ackId = -1;
    if (payload[i]! >= CH_0 && payload[i]! <= CH_0 + 9) ackId = readInt(payload, i);
    while (payload[i] !== 0x5b) i++; // '['
    if (payload.compare(EVENTS, 0, EVENTS.length, i + 1, i + 1 + EVENTS.length) === 0) {
      state.frames++;
      if (opts.full) {
        const [, frame] = JSON.parse(payload.toString("utf8", i)) as [string, { events: TapeEvent[] }];
        for (const e of frame.events) take(e.seq);
        opts.onEvents?.(frame.events, at);
      } else {
        for (let k = payload.indexOf(seqKey, i); k >= 0; k = payload.indexOf(seqKey, k + seqKey.length))
          take(readInt(payload, k + seqKey.length));
      }
      if (ackId >= 0) ws!.send(`43${ackId}[]`);
    } else if (payload.compare(LIVE, 0, LIVE.length, i + 1, i + 1 + LIVE.length) === 0) {
      state.live = true;
      opts.onLive?.((JSON.parse(payload.toString("utf8", i)) as [string, { seq: number }])[1].seq, at);
    } else if (payload.compare(DELTA, 0, DELTA.length, i + 1, i + 1 + DELTA.length) === 0) {
      state.notices++;
    } else {
      state.errors.push(payload.toString("utf8", 0, Math.min(payload.length, 300)));
    }
  };
  const onText = (payload: Buffer, socket: RawWebSocket) => {
    ws = socket;
    const at = performance.now();
    const type = payload[0];
    if (type === 0x32 /* 2: ping */) return ws!.send("3");
    if (type === 0x30 /* 0: open */) return ws!.send(`40${JSON.stringify({ token: opts.token })}`);
    if (type !== 0x34 /* 4: message */) return;
    const packet = payload[1];
    if (packet === 0x32 /* EVENT */) return onEvent(payload, at);
    if (packet === 0x30 /* CONNECT */) {
      state.subscribedAt = performance.now();
      ws!.send(`42${JSON.stringify(["tape:subscribe", { podId: opts.podId, afterSeq: opts.afterSeq }])}`);
      return settle?.ok();
    }
    if (packet === 0x34 /* CONNECT_ERROR */ || packet === 0x31 /* DISCONNECT */) {
      const why = `socket.io ${packet === 0x34 ? "connect_error" : "disconnect"}: ${payload.toString("utf8", 2)}`;
      state.errors.push(why);
      settle?.fail(new Error(why));
      ws!.close();
    }
  };
  return new Promise((resolve, reject) => {
    settle = {
      ok: () => ((settle = null), resolve({ state, close: () => ws?.close() })),
      fail: (e) => ((settle = null), reject(e)),
    };
    openRawWebSocket(base, "/socket.io/?EIO=4&transport=websocket", {
      onText,
      onClose: (why) => {
        state.closed = why;
        settle?.fail(new Error(`closed before connecting: ${why}`));
      },
    }).catch((e: Error) => settle?.fail(e));
  });
}

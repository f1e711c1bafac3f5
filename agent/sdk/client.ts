// The TypeScript SDK: one client per agent credential. Event bodies are typed
// from the same zod schemas the server validates with, and checked locally
// first, so a mistake is reported before anything is sent.
import { randomUUID } from "node:crypto";
import {
  ZEventInput,
  type Ack,
  type EventType,
  type TapeEvent,
  type TEventInput,
} from "../../server/wire/events";
import type { Whoami } from "../../server/wire/whoami";
import { PodwatchError, UsageError, type ErrorIssue } from "./errors";
import { exchange, redirectError, safeJson, type Answer, type Exchange } from "./http";

/** What a caller writes for an event of type T: the body and optional envelope fields; actor, id and ts are filled in. */
type Drafted<E> = E extends unknown
  ? Omit<E, "actor" | "id" | "ts"> & { actor?: string; id?: string; ts?: string }
  : never;
export type EventDraft<T extends EventType = EventType> = Drafted<Extract<TEventInput, { type: T }>>;
export type { Ack };
export type ClientOptions = { url: string; token: string; podId?: string; actor?: string };
export type EventsPage = { events: TapeEvent[]; nextAfter: number };

export class PodwatchClient {
  readonly url: string;
  private me?: Promise<Whoami>;

  constructor(readonly options: ClientOptions) {
    if (!options.url) throw new UsageError("no server URL: set PODWATCH_URL (e.g. http://127.0.0.1:3000)");
    if (!options.token) throw new UsageError("no token: set PODWATCH_TOKEN to an agent token of the pod");
    if (!URL.canParse(options.url) || !/^https?:$/.test(new URL(options.url).protocol))
      throw new UsageError(
        `PODWATCH_URL must be an http(s) URL such as http://127.0.0.1:3000, not "${options.url}"`,
      );
    this.url = options.url.replace(/\/+$/, "");
  }

  /** Reads PODWATCH_URL, PODWATCH_TOKEN, PODWATCH_POD and PODWATCH_ACTOR. */
  static fromEnv(env: NodeJS.ProcessEnv = process.env, overrides: Partial<ClientOptions> = {}) {
    return new PodwatchClient({
      url: env.PODWATCH_URL ?? "",
      token: env.PODWATCH_TOKEN ?? "",
      podId: env.PODWATCH_POD || undefined,
      actor: env.PODWATCH_ACTOR || undefined,
      ...stripUndefined(overrides),
    });
  }

  /** One authenticated exchange: a redirect or a 4xx/5xx throws, with the server's own error when it sent one. */
  async send(
    method: string,
    path: string,
    o: Omit<Exchange, "method" | "url"> = { headers: {} },
  ): Promise<Answer> {
    const res = await exchange({
      ...o,
      method,
      url: `${this.url}${path}`,
      headers: { ...o.headers, authorization: `Bearer ${this.options.token}` },
    });
    if (res.status >= 300 && res.status < 400) throw redirectError(res, `${method} ${path}`);
    if (res.status >= 400) {
      const err = (
        safeJson(res.text) as { error?: { code?: string; message?: string; issues?: ErrorIssue[] } } | null
      )?.error;
      throw new PodwatchError(
        res.status,
        err?.code ?? `http_${res.status}`,
        explain(res.status, err?.message, path) ?? err?.message ?? `${method} ${path} answered ${res.status}`,
        err?.issues ?? [],
      );
    }
    return res;
  }

  /** A JSON call: `body` is sent as JSON, the answer parsed. */
  async request<T>(
    method: string,
    path: string,
    body?: unknown,
    init: { signal?: AbortSignal; idleMs?: number } = {},
  ): Promise<T> {
    const text = body === undefined ? undefined : JSON.stringify(body);
    const headers: Record<string, string | number> =
      text === undefined
        ? {}
        : { "content-type": "application/json", "content-length": Buffer.byteLength(text) };
    const res = await this.send(method, path, { headers, body: text, ...init });
    return (res.text ? safeJson(res.text) : null) as T;
  }

  /** Asked once; a failed answer is not kept, so a retry after the server comes back asks again. */
  whoami(): Promise<Whoami> {
    return (this.me ??= this.request<Whoami>("GET", "/api/v1/me").catch((e: unknown) => {
      this.me = undefined;
      throw e;
    }));
  }

  /** The pod this client speaks to: PODWATCH_POD, else the pod of its agent token. */
  async podId(): Promise<string> {
    if (this.options.podId) return this.options.podId;
    const me = await this.whoami();
    if (me.kind === "agent" || me.kind === "share") return me.podId;
    throw new UsageError("no pod: set PODWATCH_POD (only an agent token implies its pod)");
  }

  async actor(): Promise<string> {
    if (this.options.actor) return this.options.actor;
    const me = await this.whoami();
    if (me.kind === "agent") return me.memberId;
    throw new UsageError("no actor: set PODWATCH_ACTOR (only an agent token implies its member)");
  }

  async podPath(rest = "") {
    return `/api/v1/pods/${encodeURIComponent(await this.podId())}${rest}`;
  }

  /** Appends events in one request (all or nothing); ids make a retry safe. */
  async append(drafts: EventDraft[]): Promise<Ack[]> {
    const actor = await this.actor();
    const events = drafts.map((d) => ({
      id: randomUUID(),
      ts: new Date().toISOString(),
      ...d,
      actor: d.actor ?? actor,
    }));
    events.forEach((e, i) => checkLocally(e, drafts.length > 1 ? `events.${i}` : ""));
    const { events: acks } = await this.request<{ events: Ack[] }>(
      "POST",
      await this.podPath("/events"),
      drafts.length === 1 ? events[0] : { events },
    );
    return acks;
  }

  async emit<T extends EventType>(draft: EventDraft<T>): Promise<Ack> {
    const [ack] = await this.append([draft as EventDraft]);
    return ack!;
  }

  /** One page of the tape after `after`; with `waitSeconds` the server holds the request until something arrives. */
  readEvents(
    after = 0,
    o: { limit?: number; waitSeconds?: number; signal?: AbortSignal } = {},
  ): Promise<EventsPage> {
    const q = new URLSearchParams({
      after: String(after),
      limit: String(o.limit ?? 100),
      ...(o.waitSeconds ? { wait: String(o.waitSeconds) } : {}),
    });
    const idleMs = ((o.waitSeconds ?? 0) + 15) * 1000; // the server is silent while it holds a long-poll
    return this.podPath(`/events?${q}`).then((p) =>
      this.request<EventsPage>("GET", p, undefined, { signal: o.signal, idleMs }),
    );
  }

  /**
   * Long-polls one page for a caller that waits a long time (tail, escalate --wait): a restart,
   * a 503 or a network blip is retried with backoff rather than ending the wait. Returns null once `signal` aborts.
   */
  async waitForPage(
    after: number,
    o: { waitSeconds: number; signal?: AbortSignal; limit?: number },
  ): Promise<EventsPage | null> {
    for (let attempt = 0; ; attempt++) {
      if (o.signal?.aborted) return null;
      try {
        return await this.readEvents(after, {
          limit: o.limit ?? 500,
          waitSeconds: o.waitSeconds,
          signal: o.signal,
        });
      } catch (e) {
        if (o.signal?.aborted) return null;
        if (!(e instanceof PodwatchError) || !isTransient(e) || attempt >= 30) throw e;
        await sleep(Math.min(10_000, 250 * 2 ** attempt), o.signal);
      }
    }
  }

  /** The live tape, forever (or until `signal` aborts): long-polls, so each event arrives as it is written. */
  async *follow(
    after = 0,
    o: { signal?: AbortSignal; waitSeconds?: number } = {},
  ): AsyncGenerator<TapeEvent> {
    let cursor = after;
    for (;;) {
      const page = await this.waitForPage(cursor, { waitSeconds: o.waitSeconds ?? 30, signal: o.signal });
      if (!page) return;
      for (const e of page.events) yield e;
      cursor = page.nextAfter;
    }
  }

  state<T = Record<string, unknown>>(atSeq?: number): Promise<T> {
    return this.podPath(`/state${atSeq === undefined ? "" : `?atSeq=${atSeq}`}`).then((p) =>
      this.request<T>("GET", p),
    );
  }
}

/**
 * The server's 401 is deliberately generic and its 404 names no id; the agent knows which of its
 * settings was used, so it says which one to check.
 */
function explain(status: number, message: string | undefined, path: string): string | undefined {
  if (status === 401)
    return "the server refused the token (unknown, revoked or mistyped): check PODWATCH_TOKEN";
  const pod = /^\/api\/v1\/pods\/([^/?]+)/.exec(path)?.[1];
  if (status === 404 && message === "pod not found" && pod)
    return `no pod ${decoded(pod)} on this server: check PODWATCH_POD (or --pod)`;
  return undefined;
}

const decoded = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
};

function checkLocally(event: unknown, prefix: string) {
  const r = ZEventInput.safeParse(event);
  if (r.success) return;
  const issues = r.error.issues.map((i) => ({
    path: [prefix, ...i.path.map(String)].filter(Boolean).join("."),
    message: i.message,
  }));
  throw new PodwatchError(
    400,
    "invalid_event",
    `invalid event: ${issues.map((i) => `${i.path || "(root)"}: ${i.message}`).join("; ")}`,
    issues,
  );
}

/** Worth retrying: unreachable, timed out, rate limited or failing (also exit code 7 in the CLI). */
export const isTransient = (e: PodwatchError) => e.status === 0 || e.status === 429 || e.status >= 500;

function sleep(ms: number, signal?: AbortSignal) {
  return new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => (clearTimeout(t), resolve()), { once: true });
  });
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

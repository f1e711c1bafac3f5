// How the command hook talks to podwatch, through the SDK's lean hook calls: hook payloads to the
// hook route, and the few events it writes itself (usage from the transcript, a gate decided
// while podwatch was unreachable, a count of dropped entries) to the events API.
import { postHook, postHookEvents, type HookReply } from "../sdk/hook-post";

export type HookSender = {
  hook(body: string, o: { replay?: boolean; wait?: number; idleMs: number }): Promise<HookReply>;
  events(events: Record<string, unknown>[], idleMs: number): Promise<void>;
};

/** `route`: the agent's hook door (Claude Code's by default). */
export function hookSender(url: string, token: string, route?: string): HookSender {
  return {
    hook: (body, o) => postHook({ url, token, body, route, ...o }),
    events: (events, idleMs) => postHookEvents({ url, token, events, idleMs }),
  };
}

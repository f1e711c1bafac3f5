// What reaches a person: per pod "all" / "decisions" / "none" (no row = all),
// and per person quiet hours and whether new items are also mailed.
import type { TapeStore } from "../db/tape-store";
import { atLeast, type Identity } from "../domain/access/policy";
import { AppError } from "../domain/errors";
import type { InboxItem, InboxKind } from "../domain/state/pod-state";
import { visiblePods } from "../pods/visible-pods";
import type {
  NotifyLevel,
  PreferencesResponse,
  QuietHours,
  TPreferencesRequest,
} from "../wire/notifications";

/** Kinds that ask a person to decide (a crossed budget asks whether to raise it, remove it or resume). Anything else (reminders, staleness alerts, notices) is informational. */
const DECISION_KINDS: ReadonlySet<string> = new Set<InboxKind>([
  "escalation",
  "decision",
  "job_acceptance",
  "plan_blocked",
  "tool_approval",
  "budget",
  "idle",
]);

/**
 * Whether an inbox item of `kind` reaches a person at `level` (inbox default view, push and mail alike).
 * `"reminder"` is the notification that an item's deadline passed with `then: remind`: informational,
 * so Everything only (the item itself stays a decision in the inbox).
 */
export const levelAllows = (level: NotifyLevel, kind: InboxKind | "reminder") =>
  level === "all" || (level === "decisions" && DECISION_KINDS.has(kind));

/** What a notification about `item` is: a reminder once its remind deadline passed, else the item's kind. */
export const notificationKind = (item: Pick<InboxItem, "kind" | "due">): InboxKind | "reminder" =>
  item.due?.passed ? "reminder" : item.kind;

export type PersonSettings = { quietHours: QuietHours | null; email: boolean };

export async function readSettings(store: TapeStore, userId: string): Promise<PersonSettings> {
  const row = await store.prisma.notificationSettings.findUnique({ where: { userId } });
  if (!row) return { quietHours: null, email: true };
  return {
    quietHours:
      row.quietStart && row.quietEnd
        ? { start: row.quietStart, end: row.quietEnd, timeZone: row.timeZone }
        : null,
    email: row.email,
  };
}

/** The person's level per pod id (pods without a row are "all"). */
export async function readLevels(store: TapeStore, userId: string): Promise<Map<string, NotifyLevel>> {
  const rows = await store.prisma.notificationPref.findMany({ where: { userId } });
  return new Map(rows.map((r) => [r.podId, r.level as NotifyLevel]));
}

export async function readPreferences(
  store: TapeStore,
  identity: Identity,
  emailAvailable: boolean,
): Promise<PreferencesResponse> {
  const user = person(identity);
  const [settings, levels, pods] = await Promise.all([
    readSettings(store, user.userId),
    readLevels(store, user.userId),
    visiblePods(store, identity),
  ]);
  return {
    ...settings,
    emailAvailable,
    pods: pods.map(({ pod, access }) => ({
      podId: pod.id,
      podName: pod.name,
      level: levels.get(pod.id) ?? "all",
      mayAnswer: atLeast(access, "approver"),
    })),
  };
}

/** Saves what the request names; a pod the person cannot see is refused and nothing is saved. */
export async function savePreferences(
  store: TapeStore,
  identity: Identity,
  input: TPreferencesRequest,
  emailAvailable: boolean,
): Promise<PreferencesResponse> {
  const user = person(identity);
  if (input.pods?.length) {
    const visible = new Set((await visiblePods(store, identity)).map((p) => p.pod.id));
    const unknown = input.pods.find((p) => !visible.has(p.podId));
    if (unknown) throw new AppError(404, "not_found", `pod ${unknown.podId} not found`);
  }
  const current = await readSettings(store, user.userId);
  await store.prisma.$transaction(async (tx) => {
    if (input.quietHours !== undefined || input.email !== undefined) {
      const quiet = input.quietHours === undefined ? current.quietHours : input.quietHours;
      const data = {
        quietStart: quiet?.start ?? null,
        quietEnd: quiet?.end ?? null,
        timeZone: quiet?.timeZone ?? "UTC",
        email: input.email ?? current.email,
      };
      await tx.notificationSettings.upsert({
        where: { userId: user.userId },
        create: { userId: user.userId, ...data },
        update: data,
      });
    }
    for (const { podId, level } of input.pods ?? []) {
      await tx.notificationPref.upsert({
        where: { userId_podId: { userId: user.userId, podId } },
        create: { userId: user.userId, podId, level },
        update: { level },
      });
    }
  });
  return readPreferences(store, identity, emailAvailable);
}

export function person(identity: Identity) {
  if (identity.kind !== "user")
    throw new AppError(403, "forbidden", "notification preferences belong to a signed-in person");
  return identity;
}

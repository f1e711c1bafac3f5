import type { NotifyLevel } from "@/server/wire/notifications";

/** What a pod may send a person, as the Notifications page and the pod page name it. */
export const LEVELS: { value: NotifyLevel; label: string }[] = [
  { value: "all", label: "Everything" },
  { value: "decisions", label: "Decisions only" },
  { value: "none", label: "Nothing" },
];

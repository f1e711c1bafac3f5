// A pod admin has read a notice (the server action and the API route build the same event).
import type { TEvent } from "../wire/events";

export const dismissNoticeEvent = (noticeId: string, actor: string): TEvent => ({
  type: "notice.dismissed",
  actor,
  body: { noticeId },
});

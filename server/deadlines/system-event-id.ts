// The server's own events get ids derived from what they are about, so the same outcome
// appended twice (a retry, a restart, two nodes) is stored once: the tape dedupes ids.
export { uuidFromKey as systemEventId } from "../wire/hash";

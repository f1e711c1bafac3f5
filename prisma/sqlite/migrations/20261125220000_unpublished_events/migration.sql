-- A large append writes its events in several short transactions past the pod's head and publishes
-- them in the last one, which moves the head over them (server/db/sqlite-store.ts, appendLarge).
-- Until then they are not on the tape: what a failure or a crash leaves of them is deleted. Events
-- up to the head stay append-only.
DROP TRIGGER "event_append_only_delete";
CREATE TRIGGER "event_append_only_delete" BEFORE DELETE ON "event"
WHEN OLD."seq" <= (SELECT "head_seq" FROM "pod" WHERE "id" = OLD."pod_id")
BEGIN
    SELECT RAISE(ABORT, 'podwatch: events are append-only');
END;

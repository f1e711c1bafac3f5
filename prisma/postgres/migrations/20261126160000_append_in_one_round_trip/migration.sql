-- A group commit planned on the heads a node last committed, written in one round trip
-- (server/db/postgres-store.ts): the pods' head rows are locked in id order (the order every
-- append locks them in), and the group is written only if each head is still the one it was
-- planned on and none of its event ids is stored yet. Otherwise nothing is written and the
-- function raises SQLSTATE PW001: the node plans the group again under the lock, the long way.
CREATE FUNCTION "podwatch_append_planned"(
    pod_ids TEXT[], planned_seqs INTEGER[], planned_hashes TEXT[], head_seqs INTEGER[], head_hashes TEXT[],
    event_ids TEXT[],
    e_id TEXT[], e_pod_id TEXT[], e_seq INTEGER[], e_type TEXT[], e_actor TEXT[], e_role TEXT[], e_ts TEXT[],
    e_received_at TEXT[], e_body TEXT[], e_meta TEXT[], e_prev_hash TEXT[], e_hash TEXT[],
    state_pod_ids TEXT[], state_seqs INTEGER[], state_texts TEXT[],
    o_pod_id TEXT[], o_from_seq INTEGER[], o_to_seq INTEGER[], o_inbox TEXT[], o_created_at TEXT,
    channel TEXT, notices TEXT[]
) RETURNS void AS $$
BEGIN
    PERFORM 1 FROM "pod" WHERE "id" = ANY(pod_ids) ORDER BY "id" FOR UPDATE;
    -- A statement of its own: it sees what committed before the locks were granted.
    IF (SELECT count(*) FROM "pod" p JOIN unnest(pod_ids, planned_seqs, planned_hashes) AS h(id, seq, hash)
          ON p."id" = h.id AND p."head_seq" = h.seq AND p."head_hash" = h.hash) <> cardinality(pod_ids) THEN
        RAISE EXCEPTION 'podwatch: a head moved since the group was planned' USING ERRCODE = 'PW001';
    END IF;
    IF EXISTS (SELECT 1 FROM "event" WHERE "id" = ANY(event_ids)) THEN
        RAISE EXCEPTION 'podwatch: an event of the group is stored already' USING ERRCODE = 'PW001';
    END IF;
    INSERT INTO "event" ("id", "pod_id", "seq", "type", "actor", "role", "ts", "received_at", "body", "meta",
                         "prev_hash", "hash")
        SELECT * FROM unnest(e_id, e_pod_id, e_seq, e_type, e_actor, e_role, e_ts, e_received_at, e_body, e_meta,
                             e_prev_hash, e_hash);
    UPDATE "pod" SET "head_seq" = h.seq, "head_hash" = h.hash
        FROM unnest(pod_ids, head_seqs, head_hashes) AS h(id, seq, hash)
        WHERE "pod"."id" = h.id AND "pod"."head_seq" <> h.seq;
    INSERT INTO "pod_state" ("pod_id", "seq", "state") SELECT * FROM unnest(state_pod_ids, state_seqs, state_texts)
        ON CONFLICT ("pod_id") DO UPDATE SET "seq" = excluded."seq", "state" = excluded."state";
    INSERT INTO "outbox" ("pod_id", "from_seq", "to_seq", "inbox", "created_at")
        SELECT p, f, t, i, o_created_at FROM unnest(o_pod_id, o_from_seq, o_to_seq, o_inbox) AS x(p, f, t, i);
    PERFORM pg_notify(channel, n) FROM unnest(notices) AS n;
END;
$$ LANGUAGE plpgsql;

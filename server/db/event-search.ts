// Filtered reads of a tape, newest first: by type, actor, role, task, run and
// free text. One query shape, spelled for each provider's JSON functions.
export type EventFilter = {
  types?: string[];
  actor?: string;
  role?: string;
  taskId?: string;
  runId?: string;
  q?: string;
};

type Dialect = { json: (col: string, key: string) => string; like: string; param: (i: number) => string };
const SQLITE: Dialect = { json: (c, k) => `json_extract(${c}, '$.${k}')`, like: "LIKE", param: () => "?" };
const POSTGRES: Dialect = {
  json: (c, k) => `(${c}::jsonb #>> '{${k.split(".").join(",")}}')`,
  like: "ILIKE",
  param: (i) => `$${i}`,
};

/** Builds `WHERE …` and its parameters; `before` pages backwards by seq. */
export function searchSql(
  kind: "sqlite" | "postgres",
  columns: string,
  podId: string,
  f: EventFilter,
  before: number,
  limit: number,
) {
  const d = kind === "sqlite" ? SQLITE : POSTGRES;
  const params: unknown[] = [];
  const p = (v: unknown) => (params.push(v), d.param(params.length));
  // Up to the head: rows past it are a large append not yet published (SQLite, sqlite-store.ts appendLarge).
  const where = [
    `pod_id = ${p(podId)}`,
    `seq < ${p(before)}`,
    `seq <= (SELECT head_seq FROM pod WHERE id = ${p(podId)})`,
  ];
  if (f.types?.length) where.push(`type IN (${f.types.map((t) => p(t)).join(", ")})`);
  if (f.actor) where.push(`actor = ${p(f.actor)}`);
  if (f.role) where.push(`role = ${p(f.role)}`);
  // Each placeholder takes its own parameter (SQLite's "?" are positional).
  if (f.taskId)
    where.push(
      `(${d.json("meta", "taskId")} = ${p(f.taskId)} OR ${d.json("body", "taskId")} = ${p(f.taskId)} OR ${d.json("body", "subject.id")} = ${p(f.taskId)})`,
    );
  if (f.runId)
    where.push(
      `(${d.json("meta", "runId")} = ${p(f.runId)} OR ${d.json("body", "runId")} = ${p(f.runId)} OR ${d.json("body", "RUN_ID")} = ${p(f.runId)})`,
    );
  if (f.q) {
    // The text as typed: `%` and `_` are not wildcards in it, in the body nor the actor.
    const text = `%${f.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(`(body ${d.like} ${p(text)} ESCAPE '\\' OR actor ${d.like} ${p(text)} ESCAPE '\\')`);
  }
  return {
    sql: `SELECT ${columns} FROM event WHERE ${where.join(" AND ")} ORDER BY seq DESC LIMIT ${p(limit)}`,
    params,
  };
}

// The protocol's file formats (docs/protocol/), accepted exactly as agents write them.
import { z } from "zod";
import { TASK_STATES, type TaskState } from "../vocabulary";
import { POD_BOUNDS } from "../pod-bounds";
import { utf8Length } from "./event-bounds";

export { TASK_STATES, type TaskState };
/** Plan task statuses: ours plus "completed" (docs/protocol/plan-and-handoffs.md#planjson), which means done. */
export const ZTaskState = z.enum(TASK_STATES);
export const ZPlanStatus = z
  .union([ZTaskState, z.literal("completed")])
  .transform((s): TaskState => (s === "completed" ? "done" : s));

/** Names the projections use as keys: never a built-in property name of JS objects (e.g. "constructor"). */
const RESERVED = new Set(Object.getOwnPropertyNames(Object.prototype));
/** A built-in property name of JS objects ("constructor", "__proto__"): never a key of a projection. */
export const isReservedName = (name: string) => RESERVED.has(name);
/** Text that cuts, hides or reorders what a person reads: control characters, line separators, bidi overrides. */
export const UNPRINTABLE = /[\p{Cc}\p{Cs}\p{Zl}\p{Zp}\u202A-\u202E\u2066-\u2069]/u;
/** One id rule for members, tasks, runs, escalations…: shown in the control room and terminals, used as keys. */
export const ZId = z
  .string()
  .min(1)
  .max(200)
  .refine((id) => !RESERVED.has(id), { message: "is a reserved name" })
  .refine((id) => !UNPRINTABLE.test(id), {
    message: "must not contain control characters (NUL, newlines, escapes, bidi overrides, line separators)",
  });

/** UTF-8 bytes of a value as (canonical) JSON; key order does not change the count. */
export function jsonBytes(value: unknown): number {
  try {
    return utf8Length(JSON.stringify(value) ?? "");
  } catch {
    return 0; // nested too deep to stringify: the event's own bounds refuse it, naming the path
  }
}

const { taskDescriptionBytes, taskMetadataBytes } = POD_BOUNDS;
/** A task's description: what the board and the inbox show. */
export const ZTaskDescription = z
  .string()
  .min(1)
  .max(5000)
  .refine((d) => utf8Length(d) <= taskDescriptionBytes, {
    message: `must be at most ${taskDescriptionBytes} bytes as UTF-8`,
  })
  .meta({
    description: `At most 5,000 characters and ${taskDescriptionBytes} bytes as UTF-8.`,
    "x-podwatch-max-bytes": taskDescriptionBytes,
  });
/** A task's metadata: kept whole in the pod's state, so its size is bounded (and after task.updated merges into it). */
export const ZTaskMetadata = z
  .record(z.string(), z.unknown())
  .refine((m) => jsonBytes(m) <= taskMetadataBytes, {
    message: `must be at most ${taskMetadataBytes} bytes as canonical JSON`,
  })
  .meta({
    description: `At most ${taskMetadataBytes} bytes as canonical JSON (UTF-8), also after task.updated merges more keys into it.`,
    "x-podwatch-max-bytes": taskMetadataBytes,
  });

/** plan.json (docs/protocol/plan-and-handoffs.md#planjson): `{ tasks: [{ task_id, description, status, metadata }] }`. */
export const ZPlanJson = z.looseObject({
  tasks: z
    .array(
      z.looseObject({
        task_id: ZId,
        description: ZTaskDescription,
        status: ZPlanStatus.default("pending"),
        metadata: ZTaskMetadata.default({}),
        depends_on: z.array(ZId).max(100).optional(),
      }),
    )
    .max(POD_BOUNDS.tasks)
    .meta({
      description: `At most ${POD_BOUNDS.tasks} tasks, and at most that many in the pod once imported.`,
      "x-podwatch-pod-max-tasks": POD_BOUNDS.tasks,
    }),
});

/** Task Manifest: docs/protocol/workcells-and-evidence.md#the-workcell-manifest. */
export const ZTaskManifest = z.looseObject({
  schema_version: z.string().min(1),
  workcell_id: ZId,
  issue: z.looseObject({
    id: ZId,
    title: z.string().min(1),
    description: z.string().default(""),
    acceptance_criteria: z.array(z.string()).default([]),
    context_files: z.array(z.string()).default([]),
    forbidden_paths: z.array(z.string()).default([]),
  }),
  toolchain: z.string().min(1),
  toolchain_config: z.record(z.string(), z.unknown()).default({}),
  quality_gates: z.record(z.string(), z.string()).default({}),
  speculate_mode: z.boolean().default(false),
  max_diff_lines: z.number().int().min(0).optional(),
  branch_name: z.string().min(1),
});

const ZGate = z.looseObject({
  passed: z.boolean(),
  exit_code: z.number().int(),
  duration_ms: z.number().min(0),
  output_path: z.string().optional(),
});

/** Patch + Proof, proof.json: docs/protocol/workcells-and-evidence.md#the-proof. */
export const ZProof = z.looseObject({
  schema_version: z.literal("1.0.0"),
  workcell_id: ZId,
  issue_id: ZId,
  status: z.enum(["success", "partial", "failed", "timeout", "error"]),
  patch: z.looseObject({
    branch: z.string().min(1),
    base_commit: z.string().min(1),
    head_commit: z.string().min(1),
    diff_stats: z.object({
      files_changed: z.number().int().min(0),
      insertions: z.number().int().min(0),
      deletions: z.number().int().min(0),
    }),
    files_modified: z.array(z.string()),
    forbidden_path_violations: z.array(z.string()),
  }),
  commands_executed: z
    .array(
      z.looseObject({
        command: z.string(),
        exit_code: z.number().int(),
        duration_ms: z.number().min(0),
        stdout_path: z.string().optional(),
      }),
    )
    .default([]),
  verification: z.looseObject({
    gates: z.record(z.string(), ZGate),
    all_passed: z.boolean(),
    blocking_failures: z.array(z.string()),
  }),
  artifacts: z.record(z.string(), z.unknown()).optional(),
  confidence: z.number().min(0).max(1).optional(),
  risk_classification: z.enum(["low", "medium", "high", "critical"]).optional(),
  risk_factors: z.array(z.string()).optional(),
  beads_mutations: z
    .array(z.looseObject({ action: z.enum(["close", "create", "update", "dep_add", "dep_remove"]) }))
    .optional(),
  follow_ups: z
    .array(
      z.looseObject({
        title: z.string(),
        description: z.string().optional(),
        priority: z.string().optional(),
        discovered_from: z.string().optional(),
      }),
    )
    .optional(),
  metadata: z.looseObject({
    toolchain: z.string(),
    toolchain_version: z.string().optional(),
    model: z.string().optional(),
    started_at: z.string(),
    completed_at: z.string(),
    duration_ms: z.number().min(0),
    tokens_used: z.number().optional(),
    cost_usd: z.number().optional(),
  }),
});

/** A TaskStep carrying a handoff tool call: docs/protocol/plan-and-handoffs.md#handoffs. */
export const ZHandoffTaskStep = z.looseObject({
  step_id: z.string(),
  agent_name: z.string().min(1),
  parts: z.array(
    z.union([
      z.looseObject({ type: z.literal("text"), text: z.string() }),
      z.looseObject({
        type: z.literal("tool_call"),
        tool_call: z.looseObject({
          id: z.string(),
          tool_name: z.string(),
          args: z.record(z.string(), z.unknown()),
        }),
      }),
    ]),
  ),
});

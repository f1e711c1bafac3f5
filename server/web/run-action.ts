// Server actions' side of the one chain (server/pods/perform-pod-action.ts): the caller is
// whoever the request's cookies say. Only Next's server code imports this file.
import type { z } from "zod";
import { appContext } from "../app-context";
import type { CallResult } from "../wire/actions";
import { currentIdentity } from "./current-identity";
import { performPodCall, type PodCall } from "../pods/perform-pod-action";

/** For server actions: the caller is whoever the request's cookies say. */
export async function runPodCall<S extends z.ZodType<{ podId: string }>, T>(
  call: PodCall<S, T>,
  raw: unknown,
): Promise<CallResult<T>> {
  return performPodCall(appContext(), await currentIdentity(), call, raw);
}

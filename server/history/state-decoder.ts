// Reads what state-codec.ts wrote, a line at a time, giving the event loop back every few
// milliseconds (the format is described there).
import { CODEC_SLICE_MS, type Container } from "../db/json-walk";
import { TimeSlices } from "../db/time-slices";

type ContainerLine = { p: number; k: string | number | null; a: 0 | 1 };
type ValueLine = [number, ...unknown[]];

/** The value `encodeInSlices` wrote, rebuilt with the event loop given back every `sliceMs`. */
export async function decodeInSlices(text: string, sliceMs = CODEC_SLICE_MS): Promise<unknown> {
  const slices = new TimeSlices(sliceMs);
  const containers: Container[] = [];
  let root: unknown;
  // A segment's parents count lines from its first.
  let segmentStart = 0;
  const parent = (p: number) => (p < 0 ? root : containers[segmentStart + p]) as Container | undefined;
  for (let at = 0, index = 0; at < text.length; index++) {
    const end = text.indexOf("\n", at);
    const line = JSON.parse(text.slice(at, end < 0 ? text.length : end)) as ContainerLine | ValueLine;
    at = end < 0 ? text.length : end + 1;
    if (Array.isArray(line)) {
      if (line[0] < 0 && line[1] === null) root = line[2];
      else
        for (let i = 1; i < line.length; i += 2)
          setEntry(parent(line[0]), line[i] as string | number, line[i + 1]);
    } else {
      const value: Container = line.a ? [] : {};
      if (line.k === null) root = value;
      else {
        if (line.p < 0) segmentStart = index;
        setEntry(parent(line.p), line.k, value);
        containers[index] = value;
      }
    }
    if (slices.due()) await slices.next();
  }
  return root;
}

function setEntry(into: Container | undefined, key: string | number | null, value: unknown) {
  if (!into || key === null)
    throw new Error("a checkpoint line names a parent that is not a container before it");
  // An own "__proto__" key, as JSON.parse makes it, not the object's prototype.
  if (key === "__proto__")
    Object.defineProperty(into, key, { value, enumerable: true, writable: true, configurable: true });
  else (into as Record<string | number, unknown>)[key] = value;
}

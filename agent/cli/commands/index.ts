// Every `podwatch` command, in the order --help lists them. A file per first word: what
// `podwatch <word> …` runs is in commands/<word>.ts.
import type { Command } from "../command";
import { checkpoint } from "./checkpoint";
import { escalate } from "./escalate";
import { evidencePush } from "./evidence";
import { handoff } from "./handoff";
import { hook } from "./hook";
import { hooksCommands } from "./hooks";
import { mcp } from "./mcp";
import { note } from "./note";
import { planCommands } from "./plan";
import { proofSubmit } from "./proof";
import { reviewCommands } from "./review";
import { runCommands } from "./run";
import { tail } from "./tail";
import { wait } from "./wait";
import { whoami } from "./whoami";
import { workcellOpen } from "./workcell";

export const COMMANDS: Command[] = [
  whoami,
  checkpoint,
  note,
  handoff,
  ...reviewCommands,
  escalate,
  wait,
  ...planCommands,
  workcellOpen,
  proofSubmit,
  ...runCommands,
  evidencePush,
  tail,
  mcp,
  hook,
  ...hooksCommands,
];

/**
 * The debug form (spec §5 "Datalogger"): communication address required (0…255), starting step
 * a valid number, the command hex bytes such as "AA BB CC". Returns the wire parameters of
 * debugCollector or the message key of each field that fails.
 */
import { hexCommandSchema, normalizeHexBytes, ruleErrorKey, startStepSchema } from '@sunwatch/protocol';

export interface DebugFormInput {
  addr: string;
  step: string;
  cmd: string;
}

export type DebugFormErrors = Partial<Record<keyof DebugFormInput, string>>;

export function debugFormErrors(v: DebugFormInput): DebugFormErrors {
  const out: DebugFormErrors = {};
  const addr = v.addr.trim();
  if (!/^\d{1,3}$/.test(addr) || Number(addr) > 255) out.addr = 'dataloggers:debug.addrRequired';
  const step = ruleErrorKey(startStepSchema, v.step.trim());
  if (step) out.step = step;
  const cmd = ruleErrorKey(hexCommandSchema, v.cmd);
  if (cmd) out.cmd = cmd;
  return out;
}

/** The wire parameters of a valid form (the command normalised to "AA BB CC"). */
export function debugParams(pn: string, v: DebugFormInput): { pn: string; addr: number; step: string; cmd: string } {
  return { pn, addr: Number(v.addr.trim()), step: String(Number(v.step.trim())), cmd: normalizeHexBytes(v.cmd) ?? v.cmd.trim() };
}

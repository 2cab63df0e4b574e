/**
 * Parameter analysis selection (spec §5 "Devices and reports"): 1–7 parameters displayed,
 * at most 4 compared, never more than 2 different units. The rule itself is the protocol's
 * `parameterSelectionError`; this turns it into the translated message of the `rules`
 * namespace and decides which options can still be picked.
 */
import { LIMITS, parameterSelectionError, type ParameterSelectionMode } from '@sunwatch/protocol';
import { ruleText } from '../../../app/rule-text';

export interface ChartField {
  id: string;
  name: string;
  unit: string;
}

export function selectionErrorKey(fields: readonly ChartField[], mode: ParameterSelectionMode): string | undefined {
  return parameterSelectionError(
    fields.map((f) => ({ unit: f.unit })),
    mode,
  );
}

/** The translated message of the failing rule, or undefined when the selection is valid. */
export function selectionMessage(fields: readonly ChartField[], mode: ParameterSelectionMode): string | undefined {
  const key = selectionErrorKey(fields, mode);
  return key ? ruleText(key) : undefined;
}

export function maxSelected(mode: ParameterSelectionMode): number {
  return mode === 'compare' ? LIMITS.PARAMETERS_COMPARE_MAX : LIMITS.PARAMETERS_DISPLAY_MAX;
}

/**
 * Why `candidate` cannot be added to the selection (translated), or undefined when it can.
 * Used to disable options and to explain a refused pick.
 */
export function addBlockedMessage(
  selected: readonly ChartField[],
  candidate: ChartField,
  mode: ParameterSelectionMode,
): string | undefined {
  if (selected.some((f) => f.id === candidate.id)) return undefined;
  return selectionMessage([...selected, candidate], mode);
}

/** The units of a selection in first-seen order (one y-axis each, at most 2). */
export function unitsOf(fields: readonly ChartField[]): string[] {
  const out: string[] = [];
  for (const f of fields) if (!out.includes(f.unit)) out.push(f.unit);
  return out;
}

/** Pure helpers of the factoryAccount page: form checks (spec §5 rules) and wire values. */
import {
  DEVICE_DEFINITIONS,
  confirmPasswordError,
  longNameSchema,
  manufacturerCodeSchema,
  passwordSchema,
  ruleErrorKey,
  usernameSchema,
} from '@sunwatch/protocol';

export interface MakerFormValues {
  usr: string;
  pwd: string;
  confPwd: string;
  name: string;
  code: string;
  /** Visible devcodes; empty = every devcode. */
  devcodes: number[];
}

/**
 * The first rule key per field (`rules` namespace; `operatorMakers:` for the page's own). Editing
 * checks only name, code and devcodes (the account and its password stay).
 */
export function makerFormErrors(v: MakerFormValues, editing: boolean): Partial<Record<keyof MakerFormValues, string>> {
  const out: Partial<Record<keyof MakerFormValues, string>> = {};
  const set = (k: keyof MakerFormValues, key: string | undefined) => {
    if (key) out[k] = key;
  };
  if (!editing) {
    set('usr', ruleErrorKey(usernameSchema, v.usr.trim()));
    set('pwd', ruleErrorKey(passwordSchema, v.pwd));
    set('confPwd', confirmPasswordError(v.pwd, v.confPwd));
  }
  set('name', ruleErrorKey(longNameSchema, v.name.trim()));
  set('code', ruleErrorKey(manufacturerCodeSchema, v.code.trim()));
  return out;
}

/** The wire form of the visible devcodes: a sorted comma list, '' for every devcode. */
export function devcodeWire(devcodes: readonly number[]): string {
  return [...new Set(devcodes)].sort((a, b) => a - b).join(',');
}

/** The shipped definitions a manufacturer may be allowed to see. */
export const DEVCODE_OPTIONS = DEVICE_DEFINITIONS.map((d) => ({ value: d.devcode, label: `${d.devcode} · ${d.name}` }));

export interface EcoinFormValues {
  /** Signed integer: positive credits, negative deducts. */
  delta?: number | null;
  reason: string;
}

/** `operatorMakers:` keys: a non-zero integer that keeps the balance ≥ 0, a reason of 2-200 characters. */
export function ecoinFormErrors(v: EcoinFormValues, balance: number): Partial<Record<keyof EcoinFormValues, string>> {
  const out: Partial<Record<keyof EcoinFormValues, string>> = {};
  const d = v.delta;
  if (d === undefined || d === null || !Number.isInteger(d) || d === 0) out.delta = 'operatorMakers:ecoin.deltaInvalid';
  else if (balance + d < 0) out.delta = 'operatorMakers:ecoin.negative';
  const reason = v.reason.trim();
  if (reason.length < 2 || reason.length > 200) out.reason = 'operatorMakers:ecoin.reasonInvalid';
  return out;
}

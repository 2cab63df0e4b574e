/**
 * Login form rules (spec §5 "Login": username required, 2-32; password required, 6-32;
 * checked on blur; the password input is trimmed), from the protocol's shared schemas. Each
 * check gives the `rules` namespace key of the message plus its interpolation values, or
 * undefined when the value is fine.
 */
import { RULE_MESSAGE_VALUES, loginPasswordSchema, loginUsernameSchema, ruleErrorKey } from '@sunwatch/protocol';
import type { RuleMessageKey } from '@sunwatch/protocol';

export interface RuleProblem {
  /** Key in the `rules` namespace, e.g. `rules.username.length`. */
  key: string;
  values: Record<string, number>;
}

function problem(key: string | undefined): RuleProblem | undefined {
  if (!key) return undefined;
  return { key, values: RULE_MESSAGE_VALUES[key as RuleMessageKey] ?? {} };
}

export function checkLoginUsr(value: unknown): RuleProblem | undefined {
  return problem(ruleErrorKey(loginUsernameSchema, typeof value === 'string' ? value : ''));
}

/** The password is trimmed before the check (and before use). */
export function checkLoginPwd(value: unknown): RuleProblem | undefined {
  return problem(ruleErrorKey(loginPasswordSchema, typeof value === 'string' ? value : ''));
}

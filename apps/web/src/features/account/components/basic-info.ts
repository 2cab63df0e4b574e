/**
 * The basic-info form's pure parts: the patch editAccount gets (only what changed, trimmed) and
 * the error text key of a field (rules from @sunwatch/protocol `profileFieldError`).
 */
import { profileFieldError, type ProfileField } from '@sunwatch/protocol';

export type BasicInfoValues = Record<ProfileField, string>;
export const BASIC_INFO_FIELDS: readonly ProfileField[] = ['qname', 'cname', 'caddr', 'ctel'];

export function basicInfoPatch(initial: BasicInfoValues, values: BasicInfoValues): Partial<BasicInfoValues> {
  const patch: Partial<BasicInfoValues> = {};
  for (const f of BASIC_INFO_FIELDS) {
    const v = (values[f] ?? '').trim();
    if (v !== (initial[f] ?? '')) patch[f] = v;
  }
  return patch;
}

/** `personal:` key of the field's error, or undefined. */
export function basicInfoErrorKey(field: ProfileField, value: string | undefined): string | undefined {
  const err = profileFieldError(field, value ?? '');
  return err ? `personal:basic.errors.${field}.${err}` : undefined;
}

/** Pure helpers of the KEYList page: form values ↔ wire parameters, the masked key. */
import { keyEntryFormSchema, ruleErrors, type CompanyKeyClient, type CompanyKeyRow } from '@sunwatch/protocol';

export interface KeyFormValues {
  company: string;
  version: string;
  client?: CompanyKeyClient;
  domain: string;
  contact: string;
  key: string;
  description: string;
  enabled: boolean;
  hostname: string;
}

export function keyFormValuesOf(r?: CompanyKeyRow): KeyFormValues {
  return {
    company: r?.company ?? '',
    version: r?.version ?? '',
    client: r?.client || undefined,
    domain: r?.domain ?? '',
    contact: r?.contact ?? '',
    key: '',
    description: r?.description ?? '',
    enabled: r?.enabled ?? true,
    hostname: r?.hostname ?? '',
  };
}

/**
 * The first rule key per field (protocol keyEntryFormSchema, spec §5). Editing an entry, an empty
 * key means "keep the stored one" and is not an error.
 */
export function keyFormErrors(v: KeyFormValues, editing: boolean): Record<string, string> {
  const value = { ...v, client: v.client ?? '', key: editing && v.key === '' ? '0123456789abcdef' : v.key };
  return ruleErrors(keyEntryFormSchema, value);
}

/** The wire fields of the form; the key only when one was typed. */
export function keyWireParams(v: KeyFormValues) {
  return {
    company: v.company.trim(),
    version: v.version.trim(),
    client: v.client!,
    domain: v.domain.trim(),
    contact: v.contact.trim(),
    description: v.description.trim(),
    enabled: v.enabled ? ('1' as const) : ('0' as const),
    hostname: v.hostname.trim(),
    ...(v.key !== '' ? { 'company-key': v.key } : {}),
  };
}

/** How a stored key is shown: masked but for its hint. */
export function maskedKey(hint: string): string {
  return `••••••••${hint}`;
}

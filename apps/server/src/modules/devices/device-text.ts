import { translateDeviceText, type DeviceDefinition } from '@sunwatch/protocol';

/** A text of the wire builders themselves ("Timestamp") in the call's language. */
export function wireText(english: string, locale: string | undefined): string {
  return translateDeviceText(english, { kind: 'wire' }, locale);
}

/** Field titles in the call's language. */
export function titleOf(def: DeviceDefinition, locale: string | undefined) {
  return (f: DeviceDefinition['fields'][number]) =>
    translateDeviceText(f.title, { devcode: def.devcode, id: f.id, kind: 'field' }, locale);
}

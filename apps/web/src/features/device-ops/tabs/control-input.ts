/**
 * What the control tab checks before it sends ctrlDevice: an item field needs one of its keys;
 * a numeric field with a range hint a number inside it (parseHintRanges, protocol); a field
 * without ranges (a time, "yyyy-mm-dd hh:mm:ss") any non-empty text, the server checks the rest.
 */
import { checkHintValue, type CtrlFieldWire } from '@sunwatch/protocol';

export type CtrlInputCheck =
  | { ok: true; value: string }
  | { ok: false; key: 'empty' | 'not-a-number' | 'out-of-range' | 'too-precise' | 'not-an-item' };

export function checkCtrlInput(field: Pick<CtrlFieldWire, 'hint' | 'item'>, text: string | undefined): CtrlInputCheck {
  const value = (text ?? '').trim();
  if (value === '') return { ok: false, key: 'empty' };
  if (field.item) return field.item.some((it) => it.key === value) ? { ok: true, value } : { ok: false, key: 'not-an-item' };
  const c = checkHintValue(field.hint, value);
  return c.ok ? { ok: true, value: c.value } : { ok: false, key: c.reason };
}

/** A value as users read it: an item's label, else the value with the field's unit. */
export function ctrlValueLabel(field: Pick<CtrlFieldWire, 'item' | 'unit'>, val: string | undefined): string {
  if (val === undefined || val === '') return '--';
  const item = field.item?.find((it) => it.key === val || (val !== '' && Number(it.key) === Number(val)));
  if (item) return item.val;
  return field.unit ? `${val} ${field.unit}` : val;
}

/** A field with a single item is a one-shot button ("Clear record"), not a choice. */
export function isButtonField(field: Pick<CtrlFieldWire, 'item'>): boolean {
  return field.item?.length === 1;
}

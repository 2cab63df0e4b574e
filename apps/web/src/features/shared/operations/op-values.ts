/**
 * The old and new values of an operation-history row as users read them. The server stores
 * them as JSON texts ("" when none): a plain value, or an object (`{val}` of a control write,
 * `{alias}` of an edit, …). Item keys of control fields become their labels.
 */
export function opValueText(json: string, labels?: ReadonlyMap<string, string>): string {
  if (json === '' || json === 'null') return '--';
  let v: unknown;
  try {
    v = JSON.parse(json);
  } catch {
    return json;
  }
  const one = (x: unknown): string => {
    if (x === null || x === undefined || x === '') return '--';
    if (typeof x === 'object') return JSON.stringify(x);
    const s = String(x);
    return labels?.get(s) ?? s;
  };
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    const o = v as Record<string, unknown>;
    if ('val' in o) return one(o.val);
    const entries = Object.entries(o);
    if (entries.length === 1) return one(entries[0]![1]);
    return entries.map(([k, x]) => `${k}: ${one(x)}`).join(', ');
  }
  return one(v);
}

/** The firmware versions of an upgrade entry: before `{firmware}`, after `{firmware, status}` (upgrade engine). */
export function upgradeChangeText(before: string, after: string): string {
  const version = (json: string): string => {
    try {
      const v = JSON.parse(json) as unknown;
      const fw = v && typeof v === 'object' ? (v as Record<string, unknown>).firmware : undefined;
      return typeof fw === 'string' && fw !== '' ? fw : '--';
    } catch {
      return '--';
    }
  };
  return `${version(before)} → ${version(after)}`;
}

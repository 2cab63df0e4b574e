import { z } from 'zod';

/** Validation rules of upgrade strategies (issue 13), shared by server and web. */

/** Strategy name length (spec §5). */
export const STRATEGY_NAME_MIN = 2;
export const STRATEGY_NAME_MAX = 64;
export const STRATEGY_TEXT_MAX = 500;
/** Most associated devices per strategy (one call). */
export const STRATEGY_DEVICES_MAX = 5000;
/** `YYYY-MM-DD HH:mm` or `YYYY-MM-DD HH:mm:ss`, local time of the strategy's timezone. */
export const STRATEGY_TIME_RE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/;
/** An associated device on the wire: `PN` (the datalogger itself) or `PN:SN` (a device behind it). */
export const STRATEGY_DEVICE_RE = /^[A-Za-z0-9]{6,32}(:[A-Za-z0-9_-]{1,32})?$/;
/** Timezone: seconds east of UTC, quarter-hour steps, −12 h … +14 h. */
export const STRATEGY_TZ_MIN = -12 * 3600;
export const STRATEGY_TZ_MAX = 14 * 3600;
/** Text fields of a strategy's target filter (model, version, datalogger type, search). */
export const STRATEGY_FILTER_TEXT_MAX = 64;
/**
 * The stored pause reason codes of a rollout (`strategyPauseText` translates them; catalogue keys
 * `strategyPause.<code>` of the protocol's errors.json).
 */
export const STRATEGY_PAUSE_CODES = ['stageFailed', 'firmwareRefused', 'creatorGone'] as const;
export type StrategyPauseCode = (typeof STRATEGY_PAUSE_CODES)[number];

const filterText = () => z.string().trim().min(1).max(STRATEGY_FILTER_TEXT_MAX).optional();

/**
 * A strategy's target filter (docs/firmware/strategies.md "By filter"), the shape of
 * `firmwareUpgradeBatch`'s filter (plantid, model, version) plus the datalogger type, a PN/alias
 * search and, for device firmware, the devcode (required there). For datalogger firmware `model`
 * and `version` are the datalogger's; for device firmware the device's.
 */
export const strategyFilterSchema = z
  .object({
    plantid: z.number().int().positive().optional(),
    /** `dataloggers.type_code` (the datalogger type of default firmware). */
    loggerType: filterText(),
    model: filterText(),
    /** The running firmware version (exact). */
    version: filterText(),
    /** PN or alias contains (case-insensitive); for devices also the SN. */
    search: filterText(),
    /** Device firmware only: the devices' devcode. */
    devcode: z.number().int().min(0).max(65535).optional(),
  })
  .strict();
export type StrategyFilter = z.infer<typeof strategyFilterSchema>;


const PAUSE_PREFIX = 'pause:';

/**
 * The stored form of a pause reason: `pause:<code>|<JSON of its parameters>` (never prose;
 * `strategyPauseText` translates it for the reader). Rows paused before the codes hold English
 * prose, shown as stored.
 */
export function encodeStrategyPause(code: StrategyPauseCode, params: Record<string, string | number> = {}): string {
  return `${PAUSE_PREFIX}${code}|${JSON.stringify(params)}`;
}

/** The code and parameters of a stored pause reason; null for '' and for legacy prose. */
export function decodeStrategyPause(stored: string | null | undefined): { code: StrategyPauseCode; params: Record<string, string | number> } | null {
  if (!stored || !stored.startsWith(PAUSE_PREFIX)) return null;
  const rest = stored.slice(PAUSE_PREFIX.length);
  const bar = rest.indexOf('|');
  const code = (bar < 0 ? rest : rest.slice(0, bar)) as StrategyPauseCode;
  if (!STRATEGY_PAUSE_CODES.includes(code)) return null;
  let params: Record<string, string | number> = {};
  if (bar >= 0) {
    try {
      const parsed = JSON.parse(rest.slice(bar + 1)) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) params = parsed as Record<string, string | number>;
    } catch {
      // Parameters unreadable: the text without them.
    }
  }
  return { code, params };
}

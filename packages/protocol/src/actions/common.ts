import { z } from 'zod';

/**
 * Wire values arrive as strings. These helpers parse them; unknown extra parameters
 * (`source`, `i18n`, `lang`, `_app_client_`, …) are accepted and ignored by every action.
 */
export const wireInt = () => z.coerce.number().int();
export const wireBool = () =>
  z.union([z.boolean(), z.enum(['0', '1', 'true', 'false'])]).transform((v) => v === true || v === '1' || v === 'true');
export const page = () => wireInt().min(0).default(0);
export const pageSize = (max = 50) => wireInt().min(1).max(max).default(10);

/** Comma-separated positive ids (`uid=1,2`, `pid=1,2`); empty = none. */
export const idList = () =>
  z
    .string()
    .max(4096)
    .regex(/^(\d+(,\d+)*)?$/)
    .transform((s) => (s === '' ? [] : [...new Set(s.split(',').map(Number))]));

/** Parameters that every call may carry. */
export const commonParams = {
  source: z.string().optional(),
  i18n: z.string().optional(),
  lang: z.string().optional(),
  _app_client_: z.string().optional(),
  _app_id_: z.string().optional(),
  _app_version_: z.string().optional(),
};

export const actionParams = <S extends z.ZodRawShape>(shape: S) => z.looseObject({ ...commonParams, ...shape });

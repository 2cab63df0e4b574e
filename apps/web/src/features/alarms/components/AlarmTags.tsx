/** Alarm type (level) and status tags, coloured like the SCADA palette (portal-screens §12). */
import { Tag, Tooltip } from 'antd';
import type { AlarmRow } from '@sunwatch/protocol';
import { useTranslation } from 'react-i18next';
import { LEVEL_KEYS } from '../model/vocabulary';

/** Tag colours by level: warning yellow, error orange, fault red, offline grey. */
export const LEVEL_COLORS = ['gold', 'orange', 'red', 'default'] as const;

export function levelKey(level: number): string {
  return `alarms:level.${LEVEL_KEYS[level] ?? 'error'}`;
}

export function LevelTag({ level }: { level: number }) {
  const { t } = useTranslation();
  return (
    <Tag color={LEVEL_COLORS[level] ?? 'orange'} data-level={level} style={{ marginInlineEnd: 0 }}>
      {t(levelKey(level))}
    </Tag>
  );
}

/** Untreated (red) or processed (green, with who and when on hover). */
export function HandleTag({ row }: { row: Pick<AlarmRow, 'handle' | 'handleUsr' | 'handleTs'> }) {
  const { t } = useTranslation();
  if (!row.handle) {
    return (
      <Tag color="error" data-handle={0} style={{ marginInlineEnd: 0 }}>
        {t('alarms:status.untreated')}
      </Tag>
    );
  }
  const tag = (
    <Tag color="success" data-handle={1} style={{ marginInlineEnd: 0 }}>
      {t('alarms:status.processed')}
    </Tag>
  );
  return row.handleUsr ? <Tooltip title={t('alarms:handledBy', { usr: row.handleUsr, ts: row.handleTs })}>{tag}</Tooltip> : tag;
}

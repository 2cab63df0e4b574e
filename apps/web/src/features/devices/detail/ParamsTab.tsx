/**
 * Parameter analysis: pick 1–7 chart fields (at most 4 when comparing, never more than 2
 * units — the protocol's parameterSelectionError, messages from the `rules` namespace) and
 * plot them over a date range on up to two y-axes.
 */
import { useMemo, useState } from 'react';
import { Alert, Button, DatePicker, Empty, Flex, Segmented, Select, Skeleton, Tooltip, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { LIMITS, getDefinition } from '@sunwatch/protocol';
import { useTranslation } from 'react-i18next';
import { apiErrorText, notice } from '../../../app/notify';
import { currentLocale } from '../../../i18n';
import { EChart } from '../../shared/charts/EChart';
import { curvesOption } from '../../shared/charts/options';
import { isAfterPlantToday } from '../../../app/plant-day';
import { useChartFields, useParamCurves, usePlantToday } from '../api/queries';
import type { DeviceTupleLike } from '../../shared/devices/paths';
import { addBlockedMessage, selectionMessage, unitsOf, type ChartField } from './param-selection';

type Mode = 'display' | 'compare';
/** Report ranges are at most 31 days (spec §5). */
const MAX_RANGE_DAYS = 31;

export function ParamsTab({ device }: { device: DeviceTupleLike }) {
  const { t } = useTranslation();
  const locale = currentLocale();
  const fieldsQ = useChartFields(device);
  // the state-of-charge field is named as such, whatever its vendor title ("Battery Capacity")
  const socField = getDefinition(Number(device.devcode))?.roles?.soc;
  const nameOf = (id: string, name: string) => (id === socField ? t('devices:figures.soc') : name);
  const fields = useMemo<ChartField[]>(
    () => (fieldsQ.data ?? []).map((f) => ({ id: f.optional, name: nameOf(f.optional, f.name), unit: f.uint ?? '' })),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- nameOf depends on the devcode and language only
    [fieldsQ.data, socField, t],
  );
  const [mode, setMode] = useState<Mode>('display');
  const [picked, setPicked] = useState<string[] | undefined>(undefined);
  // the plant's days (default: the plant's today), as the server reads sdate/edate
  const today = usePlantToday(device);
  const [pickedRange, setRange] = useState<[Dayjs, Dayjs] | undefined>(undefined);
  const range: [Dayjs, Dayjs] | undefined = pickedRange ?? (today ? [today, today] : undefined);
  // Default selection: the first visible field.
  const defaultPick = useMemo(() => {
    const first = (fieldsQ.data ?? []).find((f) => f.visable) ?? fieldsQ.data?.[0];
    return first ? [first.optional] : [];
  }, [fieldsQ.data]);
  const selectedIds = picked ?? defaultPick;
  const selected = selectedIds.map((id) => fields.find((f) => f.id === id)).filter((f): f is ChartField => !!f);
  const error = selectionMessage(selected, mode);
  const [applied, setApplied] = useState<{ ids: string[]; mode: Mode; range: [string, string] } | undefined>(undefined);
  const todayWire = today?.format('YYYY-MM-DD');
  const effective = applied ?? (defaultPick.length && todayWire ? { ids: defaultPick, mode: 'display' as Mode, range: [todayWire, todayWire] as [string, string] } : undefined);
  const curves = useParamCurves(device, effective?.ids ?? [], effective?.range[0] ?? '', effective?.range[1] ?? '', effective?.mode ?? 'display', !!effective && effective.ids.length > 0);

  const onChange = (ids: string[]) => {
    const next = ids.map((id) => fields.find((f) => f.id === id)).filter((f): f is ChartField => !!f);
    const added = next.find((f) => !selectedIds.includes(f.id));
    if (added) {
      const blocked = addBlockedMessage(selected, added, mode);
      if (blocked) {
        void notice().warning(blocked);
        return;
      }
    }
    setPicked(ids);
  };

  const onMode = (m: Mode) => {
    setMode(m);
    const msg = selectionMessage(selected, m);
    if (msg) void notice().warning(msg);
  };

  if (fieldsQ.isPending) return <Skeleton active />;
  if (fieldsQ.isError) return <Alert type="error" showIcon message={t('devices:detail.loadFailed')} description={apiErrorText(fieldsQ.error)} />;
  if (fields.length === 0) return <Empty description={t('devices:params.noFields')} />;

  const units = unitsOf(selected);
  return (
    <Flex vertical gap={16} data-testid="params" data-selected={selectedIds.join(',')} data-mode={mode}>
      <Flex gap={12} wrap align="center">
        <Segmented<Mode>
          value={mode}
          onChange={onMode}
          options={[
            { value: 'display', label: t('devices:params.display') },
            { value: 'compare', label: t('devices:params.compare') },
          ]}
        />
        <Select
          mode="multiple"
          aria-label={t('devices:params.fields')}
          placeholder={t('devices:params.fields')}
          style={{ minWidth: 320, flex: 1 }}
          value={selectedIds}
          onChange={onChange}
          maxTagCount="responsive"
          optionFilterProp="label"
          options={fields.map((f) => {
            const blocked = addBlockedMessage(selected, f, mode);
            return {
              value: f.id,
              label: f.unit ? `${f.name} (${f.unit})` : f.name,
              disabled: !!blocked,
              title: blocked,
            };
          })}
        />
        <DatePicker.RangePicker
          value={range}
          disabled={!range}
          allowClear={false}
          disabledDate={(d) => !!today && isAfterPlantToday(d, today)}
          onChange={(v) => {
            if (!v?.[0] || !v[1]) return;
            const [a, b] = v as [Dayjs, Dayjs];
            if (b.diff(a, 'day') + 1 > MAX_RANGE_DAYS) {
              void notice().warning(t('devices:params.rangeTooLong', { days: MAX_RANGE_DAYS }));
              return;
            }
            setRange([a, b]);
          }}
        />
        <Tooltip title={error}>
          <Button
            type="primary"
            disabled={!!error || !range}
            onClick={() =>
              range && setApplied({ ids: selectedIds, mode, range: [range[0].format('YYYY-MM-DD'), range[1].format('YYYY-MM-DD')] })
            }
          >
            {t('devices:params.apply')}
          </Button>
        </Tooltip>
      </Flex>
      <Typography.Text type="secondary">
        {t('devices:params.hint', {
          display: LIMITS.PARAMETERS_DISPLAY_MAX,
          compare: LIMITS.PARAMETERS_COMPARE_MAX,
          units: LIMITS.PARAMETERS_UNITS_MAX,
        })}{' '}
        {units.length > 0 && t('devices:params.units', { units: units.filter(Boolean).join(', ') || '—' })}
      </Typography.Text>
      {error && <Alert type="warning" showIcon message={error} data-testid="param-rule" />}
      {curves.isFetching && !curves.data ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : curves.isError ? (
        <Alert type="error" showIcon message={t('devices:detail.loadFailed')} description={apiErrorText(curves.error)} />
      ) : !curves.data || curves.data.curves.every((c) => c.data.length === 0) ? (
        <Empty description={t('devices:detail.noData')} />
      ) : (
        <EChart
          ariaLabel={t('devices:params.title')}
          height={420}
          option={curvesOption(
            curves.data.curves.map((c) => ({ name: nameOf(c.field, c.name), unit: c.unit, points: c.data })),
            locale,
          )}
        />
      )}
    </Flex>
  );
}

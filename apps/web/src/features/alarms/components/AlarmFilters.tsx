/**
 * The alarm list's filters (issue 11): fuzzy PN/SN search, plant, datalogger PN, device SN, alarm
 * types, status, device type, occurrence days, and whether alarms hidden by the account's rules
 * show too. Every value lives in the address bar (list-params.ts); "Reset" clears them all.
 */
import { useState } from 'react';
import { Badge, Button, Checkbox, Flex, Input, Select, Space, Tag } from 'antd';
import { ClearOutlined, FilterOutlined } from '@ant-design/icons';
import type { AlarmDeviceType } from '@sunwatch/protocol';
import { useTranslation } from 'react-i18next';
import { useIsPhone } from '../../../components/responsive';
import type { AlarmListState } from '../api/list-params';
import { usePlantChoices } from '../api/queries';
import { DEVICE_TYPES, LEVEL_KEYS } from '../model/vocabulary';

export interface AlarmFiltersProps {
  state: AlarmListState;
  update: (patch: Partial<AlarmListState>) => void;
  /** The plant picker (needs the plant list). */
  plants: boolean;
}

/** Plant picker searching the account's plants by name on the server. */
export function PlantSelect({
  value,
  onChange,
  multiple,
  width,
  testId,
}: {
  value: number | number[] | undefined;
  onChange: (v: number | number[] | undefined) => void;
  multiple?: boolean;
  width: number | string;
  testId: string;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [open, setOpen] = useState(false);
  const choices = usePlantChoices(name, open || (Array.isArray(value) ? value.length > 0 : !!value));
  const options = (choices.data?.plant ?? []).map((p) => ({ value: p.pid, label: p.name }));
  return (
    <Select<number | number[]>
      mode={multiple ? 'multiple' : undefined}
      showSearch
      filterOption={false}
      onSearch={setName}
      allowClear
      aria-label={t('alarms:filter.plant')}
      placeholder={t('alarms:filter.allPlants')}
      value={value}
      onChange={(v) => onChange(v ?? undefined)}
      onOpenChange={setOpen}
      loading={choices.isFetching}
      options={options}
      style={{ width }}
      data-testid={testId}
    />
  );
}

export function AlarmFilters({ state, update, plants }: AlarmFiltersProps) {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const w = (desktop: number) => (phone ? '100%' : desktop);
  const set = [
    !!state.pid,
    !!state.pn,
    !!state.sn,
    state.levels.length > 0,
    state.handle >= 0,
    !!state.atype,
    !!state.from,
    state.showHidden,
    state.id > 0,
  ].filter(Boolean).length;
  const any = !!state.search || set > 0;
  // on a phone the filters beyond the search fold away behind a button that counts the set ones
  const [unfolded, setUnfolded] = useState(false);
  const folded = phone && !unfolded;
  const text = (key: 'pn' | 'sn', label: string) => (
    <Input
      key={`${key}-${state[key]}`}
      allowClear
      defaultValue={state[key]}
      placeholder={label}
      aria-label={label}
      onPressEnter={(e) => update({ [key]: e.currentTarget.value.trim() })}
      onBlur={(e) => e.currentTarget.value.trim() !== state[key] && update({ [key]: e.currentTarget.value.trim() })}
      onClear={() => update({ [key]: '' })}
      style={{ width: w(170) }}
      data-testid={`alarm-filter-${key}`}
    />
  );
  return (
    <Flex wrap gap={8} data-testid="alarm-filters">
      <Input.Search
        key={`q-${state.search}`}
        allowClear
        defaultValue={state.search}
        placeholder={t('alarms:filter.search')}
        onSearch={(search) => update({ search })}
        style={{ width: w(220) }}
        data-testid="alarm-search"
      />
      {phone && (
        <Badge count={set} size="small">
          <Button
            icon={<FilterOutlined />}
            onClick={() => setUnfolded(!unfolded)}
            aria-expanded={unfolded}
            data-testid="alarm-filter-toggle"
          >
            {t('alarms:filter.more')}
          </Button>
        </Badge>
      )}
      {!folded && (
        <>
          {plants && (
            <PlantSelect
              value={state.pid || undefined}
              onChange={(v) => update({ pid: typeof v === 'number' ? v : 0 })}
              width={w(200)}
              testId="alarm-filter-plant"
            />
          )}
          {text('pn', t('alarms:filter.pn'))}
          {text('sn', t('alarms:filter.sn'))}
          <Select<number[]>
            mode="multiple"
            allowClear
            aria-label={t('alarms:filter.type')}
            placeholder={t('alarms:filter.allTypes')}
            value={state.levels}
            onChange={(levels) => update({ levels: [...levels].sort() })}
            options={LEVEL_KEYS.map((k, level) => ({ value: level, label: t(`alarms:level.${k}`) }))}
            style={{ width: w(220) }}
            maxTagCount="responsive"
            data-testid="alarm-filter-level"
          />
          <Select<number>
            aria-label={t('alarms:filter.status')}
            value={state.handle}
            onChange={(handle) => update({ handle })}
            options={[
              { value: -1, label: t('alarms:filter.allStatus') },
              { value: 0, label: t('alarms:status.untreated') },
              { value: 1, label: t('alarms:status.processed') },
            ]}
            style={{ width: w(150) }}
            data-testid="alarm-filter-status"
          />
          <Select<AlarmDeviceType | ''>
            aria-label={t('alarms:filter.deviceType')}
            value={state.atype}
            onChange={(atype) => update({ atype })}
            options={[
              { value: '', label: t('alarms:filter.allDeviceTypes') },
              ...DEVICE_TYPES.map((a) => ({ value: a, label: t(`alarms:atype.${a}`) })),
            ]}
            style={{ width: w(190) }}
            data-testid="alarm-filter-atype"
          />
          <DayRange state={state} update={update} phone={phone} />
          <Space wrap>
            {state.id > 0 && (
              <Tag closable onClose={() => update({ id: 0 })} data-testid="alarm-filter-id">
                {t('alarms:filter.oneAlarm', { id: state.id })}
              </Tag>
            )}
            <Checkbox
              checked={state.showHidden}
              onChange={(e) => update({ showHidden: e.target.checked })}
              data-testid="alarm-filter-hidden"
            >
              {t('alarms:filter.showHidden')}
            </Checkbox>
            {any && (
              <Button
                icon={<ClearOutlined />}
                onClick={() =>
                  update({
                    search: '',
                    pid: 0,
                    pn: '',
                    sn: '',
                    levels: [],
                    handle: -1,
                    atype: '',
                    from: '',
                    to: '',
                    showHidden: false,
                    id: 0,
                  })
                }
                data-testid="alarm-filter-reset"
              >
                {t('alarms:filter.reset')}
              </Button>
            )}
          </Space>
        </>
      )}
    </Flex>
  );
}

/** Occurrence days, from and to (both or neither; the browser's date inputs, light on a phone). */
function DayRange({
  state,
  update,
  phone,
}: {
  state: AlarmListState;
  update: AlarmFiltersProps['update'];
  phone: boolean;
}) {
  const { t } = useTranslation();
  const [from, setFrom] = useState(state.from);
  const [to, setTo] = useState(state.to);
  const apply = (f: string, tt: string) => {
    if (f && tt && f <= tt) update({ from: f, to: tt });
    else if (!f && !tt && (state.from || state.to)) update({ from: '', to: '' });
  };
  return (
    <Space.Compact style={{ width: phone ? '100%' : undefined }} data-testid="alarm-filter-range">
      <Input
        type="date"
        aria-label={t('alarms:filter.from')}
        title={t('alarms:filter.from')}
        value={from}
        max={to || undefined}
        onChange={(e) => {
          setFrom(e.target.value);
          apply(e.target.value, to);
        }}
        style={{ width: phone ? '50%' : 150 }}
        data-testid="alarm-filter-from"
      />
      <Input
        type="date"
        aria-label={t('alarms:filter.to')}
        title={t('alarms:filter.to')}
        value={to}
        min={from || undefined}
        onChange={(e) => {
          setTo(e.target.value);
          apply(from, e.target.value);
        }}
        style={{ width: phone ? '50%' : 150 }}
        data-testid="alarm-filter-to"
      />
    </Space.Compact>
  );
}

/**
 * The default firmware per datalogger type (queryDefaultFirmwares / setDefaultFirmware): every type
 * of the manufacturer's fleet and every type with a default. Writers pick a signed firmware of the
 * library (searched on the server) or clear it; readers see the defaults.
 */
import { useState, type HTMLAttributes } from 'react';
import { Card, Select, Table, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import type { DefaultFirmwareRow } from '@sunwatch/protocol';
import { notice, showApiError } from '../../../app/notify';
import { emptyLocale, responsiveTable, tableLoading, ListStates } from '../../../components/list';
import { useIsPhone } from '../../../components/responsive';
import { useDefaultFirmwares, useFirmwares, useSetDefaultFirmware } from '../api/queries';

export function DefaultFirmwareCard({ canWrite }: { canWrite: boolean }) {
  const { t } = useTranslation('firmware');
  const phone = useIsPhone();
  const q = useDefaultFirmwares();
  const columns: TableColumnsType<DefaultFirmwareRow> = [
    { title: t('defaults.type'), dataIndex: 'dataloggerType', width: 140 },
    { title: t('defaults.count'), dataIndex: 'dataloggers', width: 100 },
    {
      title: t('defaults.firmware'),
      key: 'firmware',
      width: 260,
      render: (_: unknown, r) =>
        canWrite ? (
          <DefaultPicker row={r} />
        ) : r.firmware ? (
          `${r.firmware.name} ${r.firmware.version}`
        ) : (
          <Typography.Text type="secondary">{t('defaults.none')}</Typography.Text>
        ),
    },
  ];
  return (
    <Card title={t('defaults.title')} size="small" data-testid="fw-defaults">
      <Typography.Paragraph type="secondary">{t('defaults.hint')}</Typography.Paragraph>
      <ListStates query={q} errorTitle={t('loadFailed')}>
        <Table<DefaultFirmwareRow>
          rowKey="dataloggerType"
          size="small"
          pagination={false}
          dataSource={q.data?.types ?? []}
          loading={tableLoading(q)}
          locale={emptyLocale(t('defaults.empty'))}
          {...responsiveTable(columns, phone)}
          onRow={(r) =>
            ({ 'data-testid': 'fw-default-row', 'data-type': r.dataloggerType }) as HTMLAttributes<HTMLElement>
          }
        />
      </ListStates>
    </Card>
  );
}

/** A type's default: the signed firmwares of the library, searched on the server; clearing sets none. */
function DefaultPicker({ row }: { row: DefaultFirmwareRow }) {
  const { t } = useTranslation('firmware');
  const [search, setSearch] = useState('');
  const [open, setOpen] = useState(false);
  const choices = useFirmwares({ page: 0, pagesize: 20, ...(search ? { search } : {}) }, open);
  const set = useSetDefaultFirmware();
  const current = row.firmware;
  const options = (choices.data?.firmware ?? []).map((f) => ({
    value: f.firmware,
    disabled: !f.signed || f.keyRevoked,
    label: `${f.name} ${f.version}${f.signed ? '' : ` · ${t('unsigned')}`}`,
  }));
  if (current && !options.some((o) => o.value === current.firmware))
    options.unshift({ value: current.firmware, disabled: false, label: `${current.name} ${current.version}` });
  const choose = async (code?: string) => {
    try {
      await set.mutateAsync({ dataloggerType: row.dataloggerType, firmware: code ?? '' });
      const f = options.find((o) => o.value === code);
      void notice().success(
        code
          ? t('defaults.set', { type: row.dataloggerType, name: f?.label ?? code })
          : t('defaults.cleared', { type: row.dataloggerType }),
      );
    } catch (e) {
      showApiError(e);
    }
  };
  return (
    <Select
      showSearch
      allowClear
      filterOption={false}
      onSearch={(v) => setSearch(v.trim())}
      onDropdownVisibleChange={setOpen}
      value={current?.firmware}
      placeholder={t('defaults.choose')}
      loading={choices.isFetching || set.isPending}
      onChange={(code?: string) => void choose(code)}
      options={options}
      style={{ width: '100%', minWidth: 180 }}
      data-testid="fw-default-select"
    />
  );
}

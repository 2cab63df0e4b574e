/**
 * Operator area, protocolInstruction (issue 14): the protocol definitions of packages/protocol,
 * browsable — the devcodes (webQueryProtocolDefinitions), then one devcode's fields, control fields
 * and alarm codes (webQueryProtocolFields / Controls / Faults). Server-paged and filtered; the state
 * (devcode, section, filters, page) is in the address bar.
 */
import { Button, Descriptions, Flex, Input, Segmented, Select, Tag, Typography } from 'antd';
import type { TableColumnsType } from 'antd';
import { ArrowLeftOutlined } from '@ant-design/icons';
import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  DEVICE_KINDS,
  FIELD_GROUPS,
  type DeviceKind,
  type ProtocolControlRow,
  type ProtocolDefinitionRow,
  type ProtocolFaultRow,
  type ProtocolFieldRow,
} from '@sunwatch/protocol';
import { enumFilter, intParam, useListState, wirePaging, type ListSpec, type PagedState } from '../../../components/list';
import { PagedTable, type ListPager } from '../../../components/list/PagedTable';
import { useIsPhone } from '../../../components/responsive';
import { useAllDefinitions, useControls, useDefinitions, useFaults, useFields } from '../api/queries';

const PAGE_SIZES = [10, 20, 50];
const SECTIONS = ['fields', 'controls', 'faults'] as const;
type Section = (typeof SECTIONS)[number];

interface DefState {
  current: number;
  pageSize: number;
  search: string;
  kind: '' | DeviceKind;
}
const DEF_SPEC: ListSpec<DefState> = {
  defaultPageSize: 10,
  pageSizes: PAGE_SIZES,
  ...enumFilter('kind', ['', ...DEVICE_KINDS], ''),
};

/** The tables' pager, error title and empty text. */
function useToolTable<S extends PagedState>(state: S, update: (patch: Partial<S>) => void) {
  const { t } = useTranslation();
  const pager: ListPager<S> = {
    state,
    update,
    pageSizes: PAGE_SIZES,
    showTotal: (n) => t('protocolTools:total', { n }),
  };
  return { pager, errorTitle: t('protocolTools:loadFailed'), emptyText: t('protocolTools:empty') };
}

interface DetailState {
  current: number;
  pageSize: number;
  search: string;
  devcode: number;
  section: Section;
  group: string;
}
const DETAIL_SPEC: ListSpec<DetailState> = {
  defaultPageSize: 20,
  pageSizes: PAGE_SIZES,
  readFilters: (q) => {
    const section = q.get('section') as Section | null;
    const group = q.get('group') ?? '';
    return {
      devcode: intParam(q.get('devcode'), 0),
      section: section && SECTIONS.includes(section) ? section : 'fields',
      group: (FIELD_GROUPS as readonly string[]).includes(group) ? group : '',
    };
  },
  writeFilters(s, q) {
    q.set('devcode', String(s.devcode));
    if (s.section !== 'fields') q.set('section', s.section);
    if (s.group) q.set('group', s.group);
  },
};

function Definitions({ open }: { open: (devcode: number) => void }) {
  const { t } = useTranslation();
  const [state, update] = useListState(DEF_SPEC);
  const q = useDefinitions({ q: state.search, kind: state.kind, ...wirePaging(state) });
  const table = useToolTable(state, update);
  const columns: TableColumnsType<ProtocolDefinitionRow> = [
    {
      title: t('protocolTools:devcode'),
      key: 'devcode',
      render: (_, d) => (
        <Button
          type="link"
          style={{ padding: 0 }}
          onClick={() => open(d.devcode)}
          data-testid={`definition-${d.devcode}`}
        >
          {d.devcode}
        </Button>
      ),
    },
    { title: t('protocolTools:def.name'), dataIndex: 'name', key: 'name' },
    { title: t('protocolTools:def.vendor'), dataIndex: 'vendor', key: 'vendor' },
    {
      title: t('protocolTools:def.kind'),
      key: 'kind',
      render: (_, d) => t(`protocolTools:kind.${d.kind}`, { defaultValue: d.kind }),
    },
    { title: 'devtype', dataIndex: 'devtype', key: 'devtype' },
    { title: t('protocolTools:def.fields'), dataIndex: 'fields', key: 'fields' },
    { title: t('protocolTools:def.controls'), dataIndex: 'controls', key: 'controls' },
    { title: t('protocolTools:def.faults'), dataIndex: 'faults', key: 'faults' },
    { title: t('protocolTools:def.registers'), key: 'regs', render: (_, d) => `${d.registerMin}–${d.registerMax}` },
    {
      title: t('protocolTools:def.origin'),
      key: 'origin',
      render: (_, d) => <Tag>{t(`protocolTools:origin.${d.origin}`)}</Tag>,
    },
  ];
  return (
    <Flex vertical gap={12}>
      <Flex gap={12} wrap>
        <Input.Search
          allowClear
          style={{ flex: '1 1 220px', maxWidth: 360 }}
          placeholder={t('protocolTools:def.search')}
          defaultValue={state.search}
          onSearch={(v) => update({ search: v })}
        />
        <Select
          style={{ flex: '0 1 220px', minWidth: 160 }}
          value={state.kind}
          onChange={(kind) => update({ kind })}
          options={[
            { value: '', label: t('protocolTools:def.allKinds') },
            ...DEVICE_KINDS.map((k) => ({ value: k, label: t(`protocolTools:kind.${k}`) })),
          ]}
        />
      </Flex>
      <PagedTable query={q} rows={q.data?.rows} total={q.data?.total} rowKey="devcode" columns={columns} {...table} />
    </Flex>
  );
}

function Detail({ back }: { back: () => void }) {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const [state, update] = useListState(DETAIL_SPEC);
  const defs = useAllDefinitions();
  const def = defs.data?.rows.find((d) => d.devcode === state.devcode);
  const base = { devcode: state.devcode, q: state.search, ...wirePaging(state) };
  const fields = useFields({ ...base, group: state.group }, state.section === 'fields');
  const controls = useControls(base, state.section === 'controls');
  const faults = useFaults(base, state.section === 'faults');
  const table = useToolTable(state, update);

  const fieldCols: TableColumnsType<ProtocolFieldRow> = [
    { title: 'id', dataIndex: 'id', key: 'id', render: (v: string) => <code>{v}</code> },
    { title: t('protocolTools:field.title'), dataIndex: 'title', key: 'title' },
    { title: t('protocolTools:field.unit'), dataIndex: 'unit', key: 'unit' },
    {
      title: t('protocolTools:raw.register'),
      key: 'reg',
      render: (_, f) => `${f.address}${f.words === 2 ? `–${f.address + 1}` : ''}${f.signed ? ' ±' : ''}`,
    },
    { title: t('protocolTools:field.scale'), dataIndex: 'scale', key: 'scale' },
    { title: t('protocolTools:field.group'), dataIndex: 'group', key: 'group' },
    {
      title: t('protocolTools:field.range'),
      key: 'range',
      render: (_, f) => (f.min === null && f.max === null ? '' : `${f.min ?? ''}…${f.max ?? ''}`),
    },
    {
      title: t('protocolTools:field.states'),
      key: 'states',
      render: (_, f) => (
        <Typography.Text style={{ fontSize: 12 }}>
          {f.states.map((s) => `${s.key} ${s.label}`).join(' · ')}
          {f.internal && <Tag style={{ marginLeft: 4 }}>{t('protocolTools:raw.internal')}</Tag>}
        </Typography.Text>
      ),
    },
  ];
  const controlCols: TableColumnsType<ProtocolControlRow> = [
    { title: 'id', dataIndex: 'id', key: 'id', render: (v: string) => <code>{v}</code> },
    { title: t('protocolTools:control.name'), dataIndex: 'name', key: 'name' },
    { title: t('protocolTools:raw.register'), key: 'reg', render: (_, c) => `${c.address} (${c.words})` },
    { title: t('protocolTools:field.scale'), dataIndex: 'scale', key: 'scale' },
    {
      title: t('protocolTools:control.values'),
      key: 'values',
      render: (_, c) =>
        c.items > 0
          ? `${c.sample.map((i) => i.val).join(', ')}${c.items > c.sample.length ? ` … (${c.items})` : ''}`
          : c.ranges.map((r) => `${r.min}~${r.max} / ${r.step}`).join(', ') || c.hint,
    },
    { title: t('protocolTools:control.readback'), dataIndex: 'readback', key: 'readback' },
  ];
  const faultCols: TableColumnsType<ProtocolFaultRow> = [
    { title: t('protocolTools:fault.code'), dataIndex: 'code', key: 'code' },
    { title: t('protocolTools:fault.level'), key: 'level', render: (_, f) => t(`protocolTools:level.${f.level}`) },
    { title: t('protocolTools:fault.description'), dataIndex: 'description', key: 'description' },
  ];
  return (
    <Flex vertical gap={12} data-testid="definition-detail">
      <Flex gap={8} align="center" wrap>
        <Button icon={<ArrowLeftOutlined />} onClick={back}>
          {t('protocolTools:def.back')}
        </Button>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {state.devcode} {def?.name}
        </Typography.Title>
      </Flex>
      {def && (
        <Descriptions size="small" column={phone ? 1 : 3}>
          <Descriptions.Item label={t('protocolTools:def.vendor')}>{def.vendor}</Descriptions.Item>
          <Descriptions.Item label={t('protocolTools:def.kind')}>
            {t(`protocolTools:kind.${def.kind}`, { defaultValue: def.kind })}
          </Descriptions.Item>
          <Descriptions.Item label={t('protocolTools:def.ratedPower')}>{def.ratedPower} W</Descriptions.Item>
          {def.notes && <Descriptions.Item label={t('protocolTools:def.notes')}>{def.notes}</Descriptions.Item>}
        </Descriptions>
      )}
      <Segmented<Section>
        value={state.section}
        onChange={(section) => update({ section, search: '', group: '' })}
        options={SECTIONS.map((s) => ({ value: s, label: t(`protocolTools:section.${s}`) }))}
      />
      <Flex gap={12} wrap>
        <Input.Search
          key={state.section}
          allowClear
          style={{ flex: '1 1 220px', maxWidth: 360 }}
          placeholder={t('protocolTools:def.searchIn')}
          defaultValue={state.search}
          onSearch={(v) => update({ search: v })}
        />
        {state.section === 'fields' && (
          <Select
            style={{ flex: '0 1 200px', minWidth: 140 }}
            value={state.group}
            onChange={(group) => update({ group })}
            options={[
              { value: '', label: t('protocolTools:field.allGroups') },
              ...FIELD_GROUPS.map((g) => ({ value: g, label: t(`protocolTools:group.${g.slice(0, 2)}`) })),
            ]}
          />
        )}
      </Flex>
      {state.section === 'fields' && (
        <PagedTable
          query={fields}
          rows={fields.data?.rows}
          total={fields.data?.total}
          rowKey="id"
          columns={fieldCols}
          {...table}
        />
      )}
      {state.section === 'controls' && (
        <PagedTable
          query={controls}
          rows={controls.data?.rows}
          total={controls.data?.total}
          rowKey="id"
          columns={controlCols}
          {...table}
        />
      )}
      {state.section === 'faults' && (
        <PagedTable
          query={faults}
          rows={faults.data?.rows}
          total={faults.data?.total}
          rowKey="code"
          columns={faultCols}
          {...table}
        />
      )}
    </Flex>
  );
}

export default function ProtocolInstructionPage() {
  const [params, setParams] = useSearchParams();
  const devcode = intParam(params.get('devcode'), 0);
  return (
    <div data-testid="protocol-instruction">
      {devcode > 0 ? (
        <Detail back={() => setParams(new URLSearchParams(), { replace: false })} />
      ) : (
        <Definitions open={(d) => setParams(new URLSearchParams({ devcode: String(d) }), { replace: false })} />
      )}
    </div>
  );
}

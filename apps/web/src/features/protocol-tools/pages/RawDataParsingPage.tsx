/**
 * Operator area, rawDataParsing (issue 14; docs/operator/protocol-tools.md): a pasted raw frame
 * decoded by the server with ingestion's own check and decoder (parseRawData), and a device's
 * stored samples of a time range re-parsed (webQueryDeviceRawData, paged on the server, its state
 * in the address bar).
 */
import { useState } from 'react';
import { Alert, Button, Card, DatePicker, Flex, Form, Input, InputNumber, List, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { RAW_FRAME_MAX_CHARS, RAW_HISTORY_MAX_MS } from '@sunwatch/protocol';
import { apiErrorText } from '../../../app/notify';
import {
  ListStates,
  emptyLocale,
  intParam,
  listPagination,
  useListState,
  wirePaging,
  type ListSpec,
} from '../../../components/list';
import { useParseRawData, useStoredRaw } from '../api/queries';
import { DecodedDevice } from '../components/DecodedDevice';
import { DevcodeSelect } from '../components/DevcodeSelect';

interface StoredState {
  current: number;
  pageSize: number;
  search: string;
  pn: string;
  devcode: number;
  devaddr: number;
  sn: string;
  from: number;
  to: number;
}

const PAGE_SIZES = [5, 10, 20];

export const STORED_SPEC: ListSpec<StoredState> = {
  defaultPageSize: 5,
  pageSizes: PAGE_SIZES,
  maxPageSize: 20,
  readFilters: (q) => ({
    pn: q.get('pn') ?? '',
    devcode: intParam(q.get('devcode'), 0),
    devaddr: intParam(q.get('devaddr'), 0),
    sn: q.get('sn') ?? '',
    from: intParam(q.get('from'), 0),
    to: intParam(q.get('to'), 0),
  }),
  writeFilters(s, q) {
    for (const k of ['pn', 'sn'] as const) if (s[k]) q.set(k, s[k]);
    for (const k of ['devcode', 'devaddr', 'from', 'to'] as const) if (s[k]) q.set(k, String(s[k]));
  },
};

function ParseCard() {
  const { t } = useTranslation();
  const [devcode, setDevcode] = useState<number | undefined>(undefined);
  const [start, setStart] = useState<number>(0);
  const [frame, setFrame] = useState('');
  const [tried, setTried] = useState(false);
  const parse = useParseRawData();
  const run = () => {
    setTried(true);
    if (devcode === undefined || frame.trim() === '') return;
    parse.mutate({ devcode, start, frame: frame.trim() });
  };
  const dat = parse.data;
  return (
    <Card size="small" title={t('protocolTools:raw.parseTitle')}>
      <Typography.Paragraph type="secondary">{t('protocolTools:raw.intro')}</Typography.Paragraph>
      <Form layout="vertical" onFinish={run}>
        <Flex gap={12} wrap>
          <Form.Item
            label={t('protocolTools:devcode')}
            htmlFor="raw-devcode"
            style={{ flex: '1 1 220px', minWidth: 0 }}
            validateStatus={tried && devcode === undefined ? 'error' : undefined}
            help={tried && devcode === undefined ? t('protocolTools:raw.devcodeRequired') : undefined}
          >
            <DevcodeSelect id="raw-devcode" testId="raw-devcode" value={devcode} onChange={setDevcode} />
          </Form.Item>
          <Form.Item label={t('protocolTools:raw.start')} htmlFor="raw-start" style={{ flex: '0 1 160px' }}>
            <InputNumber
              id="raw-start"
              min={0}
              max={65535}
              value={start}
              onChange={(v) => setStart(v ?? 0)}
              style={{ width: '100%' }}
            />
          </Form.Item>
        </Flex>
        <Form.Item
          label={t('protocolTools:raw.frame')}
          htmlFor="raw-frame"
          validateStatus={tried && frame.trim() === '' ? 'error' : undefined}
          help={tried && frame.trim() === '' ? t('protocolTools:raw.frameRequired') : t('protocolTools:raw.frameHelp')}
        >
          <Input.TextArea
            id="raw-frame"
            data-testid="raw-frame"
            rows={5}
            maxLength={RAW_FRAME_MAX_CHARS}
            showCount
            value={frame}
            onChange={(e) => setFrame(e.target.value)}
            style={{ fontFamily: 'monospace' }}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={parse.isPending} data-testid="raw-parse">
          {t('protocolTools:raw.parse')}
        </Button>
      </Form>
      {parse.isError && <Alert style={{ marginTop: 16 }} type="error" showIcon message={apiErrorText(parse.error)} />}
      {dat && (
        <Flex vertical gap={16} style={{ marginTop: 16 }} data-testid="raw-result">
          <Typography.Text type="secondary">{t(`protocolTools:format.${dat.format}`)}</Typography.Text>
          {dat.frameError && (
            <Alert type="error" showIcon message={t('protocolTools:raw.frameRefused')} description={dat.frameError} />
          )}
          {dat.devices.map((d, i) => (
            <DecodedDevice key={`${i}-${d.devcode}-${d.sn}`} device={d} />
          ))}
        </Flex>
      )}
    </Card>
  );
}

function StoredCard() {
  const { t } = useTranslation();
  const [state, update] = useListState(STORED_SPEC);
  const [draft, setDraft] = useState(() => ({
    pn: state.pn,
    devcode: state.devcode || undefined,
    devaddr: state.devaddr || 1,
    sn: state.sn,
    range: (state.from && state.to ? [dayjs(state.from), dayjs(state.to)] : [dayjs().subtract(1, 'day'), dayjs()]) as [
      Dayjs,
      Dayjs,
    ],
  }));
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const ready = state.pn !== '' && state.devcode > 0 && state.sn !== '' && state.to > state.from;
  const q = useStoredRaw(
    {
      pn: state.pn,
      devcode: state.devcode,
      devaddr: state.devaddr,
      sn: state.sn,
      from: state.from,
      to: state.to,
      ...wirePaging(state, 20),
    },
    ready,
  );
  const search = () => {
    const [a, b] = draft.range;
    if (!draft.pn.trim() || !draft.sn.trim() || draft.devcode === undefined)
      return setProblem(t('protocolTools:stored.required'));
    if (b.valueOf() - a.valueOf() > RAW_HISTORY_MAX_MS || b.isBefore(a))
      return setProblem(t('protocolTools:stored.range'));
    setProblem(undefined);
    update({
      pn: draft.pn.trim(),
      sn: draft.sn.trim(),
      devcode: draft.devcode,
      devaddr: draft.devaddr,
      from: a.valueOf(),
      to: b.valueOf(),
    });
  };
  return (
    <Card size="small" title={t('protocolTools:stored.title')}>
      <Typography.Paragraph type="secondary">{t('protocolTools:stored.intro')}</Typography.Paragraph>
      <Form layout="vertical" onFinish={search}>
        <Flex gap={12} wrap>
          <Form.Item label="PN" htmlFor="stored-pn" style={{ flex: '1 1 160px', minWidth: 0 }}>
            <Input id="stored-pn" value={draft.pn} onChange={(e) => setDraft({ ...draft, pn: e.target.value })} />
          </Form.Item>
          <Form.Item
            label={t('protocolTools:devcode')}
            htmlFor="stored-devcode"
            style={{ flex: '1 1 200px', minWidth: 0 }}
          >
            <DevcodeSelect
              id="stored-devcode"
              value={draft.devcode}
              onChange={(v) => setDraft({ ...draft, devcode: v })}
            />
          </Form.Item>
          <Form.Item label={t('protocolTools:raw.address')} htmlFor="stored-devaddr" style={{ flex: '0 1 100px' }}>
            <InputNumber
              id="stored-devaddr"
              min={0}
              max={255}
              value={draft.devaddr}
              onChange={(v) => setDraft({ ...draft, devaddr: v ?? 0 })}
              style={{ width: '100%' }}
            />
          </Form.Item>
          <Form.Item label="SN" htmlFor="stored-sn" style={{ flex: '1 1 160px', minWidth: 0 }}>
            <Input id="stored-sn" value={draft.sn} onChange={(e) => setDraft({ ...draft, sn: e.target.value })} />
          </Form.Item>
          <Form.Item label={t('protocolTools:stored.period')} style={{ flex: '1 1 300px', minWidth: 0 }}>
            <DatePicker.RangePicker
              showTime
              style={{ width: '100%' }}
              value={draft.range}
              allowClear={false}
              onChange={(v) => {
                if (v?.[0] && v[1]) setDraft({ ...draft, range: [v[0], v[1]] });
              }}
            />
          </Form.Item>
        </Flex>
        {problem && <Alert type="error" showIcon message={problem} style={{ marginBottom: 12 }} />}
        <Button htmlType="submit">{t('protocolTools:stored.search')}</Button>
      </Form>
      {ready && (
        <ListStates query={q} errorTitle={t('protocolTools:loadFailed')}>
          <List
            style={{ marginTop: 16 }}
            loading={q.isFetching}
            dataSource={q.data?.rows ?? []}
            locale={emptyLocale(t('protocolTools:stored.empty'))}
            rowKey={(r) => String(r.ts)}
            pagination={listPagination(state, q.data?.total ?? 0, update, {
              pageSizes: PAGE_SIZES,
              showTotal: (n) => t('protocolTools:total', { n }),
            })}
            renderItem={(r) => (
              <List.Item style={{ display: 'block' }}>
                <Typography.Text strong>{dayjs(r.ts).format('YYYY-MM-DD HH:mm:ss')}</Typography.Text>
                <Typography.Paragraph
                  type="secondary"
                  style={{ wordBreak: 'break-all', fontFamily: 'monospace', fontSize: 12 }}
                >
                  {r.device.registers.map((b) => `${b.start}: ${b.hex}`).join(' · ')}
                </Typography.Paragraph>
                <DecodedDevice device={r.device} testId="stored-device" />
              </List.Item>
            )}
          />
        </ListStates>
      )}
    </Card>
  );
}

export default function RawDataParsingPage() {
  return (
    <Flex vertical gap={16} data-testid="raw-data-parsing">
      <ParseCard />
      <StoredCard />
    </Flex>
  );
}

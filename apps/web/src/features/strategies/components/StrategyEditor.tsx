/**
 * Add or edit an upgrade strategy (spec §2 "Strategy (local upgrade)", §5): name, description,
 * firmware (the library's `queryFirmwares`), type, baud rate, method, timezone, effective and
 * expiry times, canary and failure threshold, reminder, and the targets: picked one by one
 * (dataloggers for datalogger firmware, devices `PN:SN` for device firmware, searched on the
 * server) or a filter (fleet-sized strategies; the population is resolved at the effective time,
 * its current size previewed). Editing is offered only before the start; an empty device
 * selection then keeps the strategy's devices. Server refusals show under the form in the
 * user's language.
 */
import { useEffect, useState } from 'react';
import { Alert, Flex, Form, Input, InputNumber, Radio, Select, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { BAUD_RATES, FIRMWARE_TYPES, STRATEGY_NAME_MAX, STRATEGY_TEXT_MAX } from '@sunwatch/protocol';
import { api } from '../../../app/api';
import { apiErrorText, notice } from '../../../app/notify';
import { DraggableModal } from '../../shared/dialog/DraggableModal';
import { strategyKeys } from '../api/keys';
import { usePickableTargets, useSaveStrategy, type StrategyRow } from '../api/queries';
import {
  TIMEZONES,
  cleanFilter,
  emptyStrategy,
  isDeviceType,
  strategyErrors,
  strategyFormOf,
  strategyParams,
  tzLabel,
  type FilterValues,
  type StrategyFormValues,
} from '../strategy-form';

/** Waits until typing pauses before a value is used in a server query. */
function useDebounced<T>(value: T, ms = 300): T {
  const [v, setV] = useState(value);
  useEffect(() => {
    const id = setTimeout(() => setV(value), ms);
    return () => clearTimeout(id);
  }, [value, ms]);
  return v;
}

export interface StrategyEditorProps {
  open: boolean;
  row?: StrategyRow;
  onClose: () => void;
}

export function StrategyEditor({ open, row, onClose }: StrategyEditorProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<StrategyFormValues>();
  const [formError, setFormError] = useState<string>();
  const [search, setSearch] = useState('');
  const type = Form.useWatch('type', form) ?? 0;
  const selection = (Form.useWatch('selection', form) as StrategyFormValues['selection'] | undefined) ?? 'list';
  const watchedFilter = (Form.useWatch('filter', form) as FilterValues | undefined) ?? {};
  const [pickDevcode, setPickDevcode] = useState<number | null>(null);
  const deviceType = isDeviceType(type);
  const save = useSaveStrategy();

  useEffect(() => {
    if (!open) return;
    setFormError(undefined);
    setSearch('');
    setPickDevcode(null);
    form.resetFields();
    form.setFieldsValue(row ? strategyFormOf(row) : emptyStrategy(Date.now()));
  }, [open, row, form]);

  const firmwares = useQuery({
    queryKey: strategyKeys.pickable({ firmware: type }),
    queryFn: () => api.call('queryFirmwares', { page: 0, pagesize: 100, type }),
    enabled: open,
  });
  const targets = usePickableTargets(
    { page: 0, pagesize: 50, type, search, ...(deviceType && pickDevcode !== null ? { devcode: pickDevcode } : {}) },
    open && selection === 'list',
  );
  const previewFilter = useDebounced(JSON.stringify(cleanFilter(watchedFilter, type)));
  const preview = usePickableTargets({ page: 0, pagesize: 1, type, ...(JSON.parse(previewFilter) as object) }, open && selection === 'filter');

  const rule = (field: keyof StrategyFormValues) => ({
    validator: async () => {
      const key = strategyErrors(form.getFieldsValue(true) as StrategyFormValues, row !== undefined)[field];
      if (key) throw new Error(t(key));
    },
  });

  const submit = async () => {
    setFormError(undefined);
    try {
      await form.validateFields();
    } catch {
      return;
    }
    const values = form.getFieldsValue(true) as StrategyFormValues;
    try {
      await save.mutateAsync({ ...(row ? { code: row.code } : {}), values: strategyParams(values, row !== undefined) });
    } catch (e) {
      setFormError(apiErrorText(e));
      return;
    }
    void notice().success(t(row ? 'strategies:saved' : 'strategies:created', { name: values.name.trim() }));
    onClose();
  };

  const fwOptions = (firmwares.data?.firmware ?? []).map((f) => ({ value: f.firmware, label: `${f.name} ${f.version}` }));
  if (row && !fwOptions.some((o) => o.value === row.firmware.code)) {
    fwOptions.unshift({ value: row.firmware.code, label: `${row.firmware.name} ${row.firmware.version}` });
  }
  const targetOptions = deviceType
    ? (targets.data?.device ?? []).map((d) => ({
        value: `${d.pn}:${d.sn}`,
        label: `${d.pn}:${d.sn} · ${t('strategies:form.deviceLabel', { devcode: d.devcode, devaddr: d.devaddr, model: d.model || d.alias || '—', version: d.firmware || '—' })}`,
      }))
    : (targets.data?.collector ?? []).map((c) => ({ value: c.pn, label: c.alias ? `${c.pn} (${c.alias})` : c.pn }));

  return (
    <DraggableModal
      open={open}
      title={row ? t('strategies:form.editTitle', { code: row.code }) : t('strategies:form.createTitle')}
      okText={t('strategies:form.save')}
      cancelText={t('strategies:form.cancel')}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={save.isPending}
      forceRender
      width={640}
      style={{ maxWidth: 'calc(100vw - 24px)' }}
    >
      <Form<StrategyFormValues> form={form} layout="vertical" validateTrigger="onBlur" data-testid="strategy-form">
        <Form.Item name="name" label={t('strategies:field.name')} required rules={[rule('name')]}>
          <Input maxLength={STRATEGY_NAME_MAX} data-testid="strategy-name" />
        </Form.Item>
        <Form.Item name="description" label={t('strategies:field.description')} required rules={[rule('description')]}>
          <Input.TextArea maxLength={STRATEGY_TEXT_MAX} autoSize={{ minRows: 2, maxRows: 4 }} data-testid="strategy-description" />
        </Form.Item>
        <Form.Item name="type" label={t('strategies:field.type')} required>
          <Select
            data-testid="strategy-type"
            onChange={() => form.setFieldsValue({ firmware: undefined })}
            options={FIRMWARE_TYPES.map((ft) => ({ value: ft.id, label: t(`strategies:type.${ft.key}`) }))}
          />
        </Form.Item>
        <Form.Item
          name="firmware"
          label={t('strategies:field.firmware')}
          required
          rules={[rule('firmware')]}
          validateTrigger={['onBlur', 'onChange']}
          extra={firmwares.isSuccess && fwOptions.length === 0 ? t('strategies:form.noFirmware') : undefined}
        >
          <Select showSearch optionFilterProp="label" loading={firmwares.isLoading} options={fwOptions} data-testid="strategy-firmware" />
        </Form.Item>
        <Form.Item name="baudRate" label={t('strategies:field.baudRate')} required>
          <Select options={BAUD_RATES.map((b) => ({ value: b, label: String(b) }))} data-testid="strategy-baud" />
        </Form.Item>
        <Form.Item name="method" label={t('strategies:field.method')} required>
          <Radio.Group data-testid="strategy-method">
            <Radio value={0}>{t('strategies:method.0')}</Radio>
            <Radio value={1}>{t('strategies:method.1')}</Radio>
          </Radio.Group>
        </Form.Item>
        <Form.Item name="timezone" label={t('strategies:field.timezone')} required>
          <Select showSearch optionFilterProp="label" options={TIMEZONES.map((h) => ({ value: h, label: tzLabel(h) }))} data-testid="strategy-tz" />
        </Form.Item>
        <Form.Item name="startTime" label={t('strategies:field.startTime')} required rules={[rule('startTime')]} extra={t('strategies:form.timeHint')}>
          <Input placeholder="YYYY-MM-DD HH:mm" data-testid="strategy-start" />
        </Form.Item>
        <Form.Item name="endTime" label={t('strategies:field.endTime')} required rules={[rule('endTime')]}>
          <Input placeholder="YYYY-MM-DD HH:mm" data-testid="strategy-end" />
        </Form.Item>
        <Form.Item name="canaryPercent" label={t('strategies:field.canaryPercent')} extra={t('strategies:form.canaryHint')}>
          <InputNumber min={0} max={100} addonAfter="%" data-testid="strategy-canary" />
        </Form.Item>
        <Form.Item name="failureThresholdPercent" label={t('strategies:field.failureThreshold')} extra={t('strategies:form.thresholdHint')}>
          <InputNumber min={0} max={100} addonAfter="%" data-testid="strategy-threshold" />
        </Form.Item>
        <Form.Item name="reminder" label={t('strategies:field.reminder')}>
          <Input.TextArea maxLength={STRATEGY_TEXT_MAX} autoSize={{ minRows: 1, maxRows: 3 }} data-testid="strategy-reminder" />
        </Form.Item>
        <Form.Item name="selection" label={t('strategies:field.selection')}>
          <Radio.Group data-testid="strategy-selection" onChange={() => form.setFields([{ name: 'devices', errors: [] }])}>
            <Radio value="list">{t('strategies:selection.list')}</Radio>
            <Radio value="filter">{t('strategies:selection.filter')}</Radio>
          </Radio.Group>
        </Form.Item>
        {selection === 'list' ? (
          <>
            {deviceType && (
              <Form.Item label={t('strategies:filter.devcode')}>
                <InputNumber
                  min={0}
                  max={65535}
                  value={pickDevcode}
                  onChange={(v) => setPickDevcode(v ?? null)}
                  placeholder={t('strategies:form.devcodeAny')}
                  style={{ width: 200, maxWidth: '100%' }}
                  data-testid="strategy-pick-devcode"
                />
              </Form.Item>
            )}
            <Form.Item
              name="devices"
              label={t(deviceType ? 'strategies:field.devicesDevice' : 'strategies:field.devices')}
              required={!row}
              rules={[rule('devices')]}
              validateTrigger={['onBlur', 'onChange']}
              extra={row ? t('strategies:form.devicesKeep', { n: row.deviceCount }) : undefined}
            >
              <Select
                mode="multiple"
                allowClear
                showSearch
                filterOption={false}
                onSearch={setSearch}
                loading={targets.isFetching}
                options={targetOptions}
                placeholder={t(deviceType ? 'strategies:form.devicesPlaceholderDevice' : 'strategies:form.devicesPlaceholder')}
                data-testid="strategy-devices"
              />
            </Form.Item>
          </>
        ) : (
          <Form.Item label={t('strategies:field.filter')} required={deviceType} extra={t('strategies:form.filterHint')}>
            <Flex vertical gap={8} data-testid="strategy-filter">
              <Flex wrap gap={8}>
                {deviceType && (
                  <Form.Item name={['filter', 'devcode']} noStyle rules={[rule('filter')]} validateTrigger={['onBlur', 'onChange']}>
                    <InputNumber min={0} max={65535} placeholder={t('strategies:filter.devcode')} style={{ width: 160, maxWidth: '100%' }} data-testid="strategy-filter-devcode" />
                  </Form.Item>
                )}
                <Form.Item name={['filter', 'plantid']} noStyle>
                  <InputNumber min={1} placeholder={t('strategies:filter.plantid')} style={{ width: 160, maxWidth: '100%' }} data-testid="strategy-filter-plant" />
                </Form.Item>
                <Form.Item name={['filter', 'loggerType']} noStyle>
                  <Input placeholder={t('strategies:filter.loggerType')} maxLength={64} style={{ width: 180, maxWidth: '100%' }} data-testid="strategy-filter-logger-type" />
                </Form.Item>
                <Form.Item name={['filter', 'model']} noStyle>
                  <Input placeholder={t(deviceType ? 'strategies:filter.deviceModel' : 'strategies:filter.model')} maxLength={64} style={{ width: 180, maxWidth: '100%' }} data-testid="strategy-filter-model" />
                </Form.Item>
                <Form.Item name={['filter', 'version']} noStyle>
                  <Input placeholder={t('strategies:filter.version')} maxLength={64} style={{ width: 180, maxWidth: '100%' }} data-testid="strategy-filter-version" />
                </Form.Item>
                <Form.Item name={['filter', 'search']} noStyle>
                  <Input placeholder={t('strategies:filter.search')} maxLength={64} style={{ width: 180, maxWidth: '100%' }} data-testid="strategy-filter-search" />
                </Form.Item>
              </Flex>
              <Typography.Text type="secondary" data-testid="strategy-filter-preview">
                {preview.isSuccess ? t('strategies:form.filterPreview', { n: preview.data.total }) : '\u00a0'}
              </Typography.Text>
            </Flex>
          </Form.Item>
        )}
        {formError && <Alert type="error" showIcon message={formError} data-testid="strategy-form-error" />}
      </Form>
    </DraggableModal>
  );
}

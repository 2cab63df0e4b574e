/**
 * Edit a datalogger (editCollectorEs): alias, location, plant data (rated power, install date,
 * installer, currency, prices) and configuration (timezone, collection frequency, heartbeat).
 * Rules and the changed-fields-only parameters: model/edit-form.ts.
 */
import { useEffect, useState, type ReactNode } from 'react';
import { Alert, Collapse, DatePicker, Flex, Form, Input, Select, Skeleton } from 'antd';
import dayjs from 'dayjs';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { CURRENCIES, TIMEZONE_OFFSETS, timezoneLabel } from '@sunwatch/protocol';
import { api } from '../../../app/api';
import { apiErrorText, notice } from '../../../app/notify';
import { ruleText } from '../../../app/rule-text';
import { useIsPhone } from '../../../components/responsive';
import i18n from '../../../i18n';
import { dataloggerKeys } from '../api/keys';
import { DIALOG_Z } from '../model/layers';
import { useDataloggerMutation } from '../api/queries';
import { editErrors, editParams, formFromDetail, type EditErrors, type EditField, type EditForm } from '../model/edit-form';
import { DraggableModal } from '../../shared/dialog/DraggableModal';

const errorText = (key: string | undefined) => (key ? (key.startsWith('rules.') ? ruleText(key) : i18n.t(key)) : undefined);

export default function EditDataloggerDialog({ pn, onClose }: { pn: string; onClose: () => void }) {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const detail = useQuery({ queryKey: dataloggerKeys.detail(pn), queryFn: () => api.call('queryCollectorDetail', { pn }) });
  const edit = useDataloggerMutation('editCollectorEs');
  const [initial, setInitial] = useState<EditForm>();
  const [form, setForm] = useState<EditForm>();
  const [errors, setErrors] = useState<EditErrors>({});
  const [error, setError] = useState<string>();

  useEffect(() => {
    if (detail.data && !initial) {
      const f = formFromDetail(detail.data);
      setInitial(f);
      setForm(f);
    }
  }, [detail.data, initial]);

  const save = async () => {
    if (!form || !initial) return;
    const errs = editErrors(form, initial);
    setErrors(errs);
    if (Object.keys(errs).length) return;
    const params = editParams(pn, form, initial);
    if (!params) {
      void notice().info(t('dataloggers:edit.unchanged'));
      return onClose();
    }
    setError(undefined);
    try {
      await edit.mutateAsync(params);
      void notice().success(t('dataloggers:edit.saved', { pn }));
      onClose();
    } catch (e) {
      setError(apiErrorText(e, 'deviceControl'));
    }
  };

  const field = (k: EditField, label: string, input?: ReactNode, extra?: { required?: boolean; help?: string }) => (
    <Form.Item
      key={k}
      label={label}
      required={extra?.required}
      validateStatus={errors[k] ? 'error' : undefined}
      help={errorText(errors[k]) ?? extra?.help}
      style={{ flex: '1 1 200px', marginBottom: 12 }}
    >
      {input ?? (
        <Input
          value={form?.[k] ?? ''}
          onChange={(e) => set(k, e.target.value)}
          maxLength={k === 'address' ? 128 : 64}
          data-testid={`dl-edit-${k}`}
        />
      )}
    </Form.Item>
  );
  const set = (k: EditField, v: string) => {
    setForm((f) => (f ? { ...f, [k]: v } : f));
    setErrors((e) => ({ ...e, [k]: undefined }));
  };

  const body = !form ? (
    detail.isError ? (
      <Alert type="error" showIcon message={apiErrorText(detail.error)} />
    ) : (
      <Skeleton active paragraph={{ rows: 8 }} />
    )
  ) : (
    <Form layout="vertical">
      {field('alias', t('dataloggers:field.alias'), <Input value={form.alias} onChange={(e) => set('alias', e.target.value)} maxLength={128} data-testid="dl-edit-alias" />)}
      <Collapse
        defaultActiveKey={['location', 'plant', 'config']}
        ghost
        items={[
          {
            key: 'location',
            label: t('dataloggers:edit.location'),
            children: (
              <Flex wrap gap={12}>
                {field('country', t('dataloggers:edit.country'))}
                {field('province', t('dataloggers:edit.province'))}
                {field('city', t('dataloggers:edit.city'))}
                {field('county', t('dataloggers:edit.county'))}
                {field('town', t('dataloggers:edit.town'))}
                {field('address', t('dataloggers:edit.address'))}
                {field('lon', t('dataloggers:edit.lon'), undefined, { help: '-180 … 180' })}
                {field('lat', t('dataloggers:edit.lat'), undefined, { help: '-90 … 90' })}
              </Flex>
            ),
          },
          {
            key: 'plant',
            label: t('dataloggers:edit.plantData'),
            children: (
              <Flex wrap gap={12}>
                {field('nominalPower', t('dataloggers:edit.nominalPower'), undefined, { required: true })}
                {field(
                  'installDate',
                  t('dataloggers:edit.installDate'),
                  <DatePicker
                    value={form.installDate ? dayjs(form.installDate) : null}
                    onChange={(d) => set('installDate', d ? d.format('YYYY-MM-DD') : '')}
                    disabledDate={(d) => d.isAfter(dayjs(), 'day')}
                    style={{ width: '100%' }}
                    data-testid="dl-edit-installDate"
                  />,
                  { required: true },
                )}
                {field('installer', t('dataloggers:edit.installer'))}
                {field(
                  'currency',
                  t('dataloggers:edit.currency'),
                  <Select
                    value={form.currency || undefined}
                    onChange={(v: string) => set('currency', v)}
                    options={CURRENCIES.map((c) => ({ value: c, label: c }))}
                    data-testid="dl-edit-currency"
                  />,
                  { required: true },
                )}
                {field('buyProfit', t('dataloggers:edit.buyProfit'))}
                {field('sellProfit', t('dataloggers:edit.sellProfit'))}
                {field('useProfit', t('dataloggers:edit.useProfit'))}
                {field('genProfit', t('dataloggers:edit.genProfit'))}
              </Flex>
            ),
          },
          {
            key: 'config',
            label: t('dataloggers:edit.configuration'),
            children: (
              <Flex vertical>
                <Alert type="info" showIcon message={t('dataloggers:edit.commandHint')} style={{ marginBottom: 12 }} />
                <Flex wrap gap={12}>
                  {field(
                    'timezone',
                    t('dataloggers:edit.timezone'),
                    <Select
                      value={form.timezone}
                      onChange={(v: string) => set('timezone', v)}
                      options={TIMEZONE_OFFSETS.map((s) => ({ value: String(s), label: timezoneLabel(s) }))}
                      data-testid="dl-edit-timezone"
                    />,
                  )}
                  {field('datFetch', t('dataloggers:edit.datFetch'), undefined, { help: t('dataloggers:edit.intervalRange') })}
                  {field('heartbeat', t('dataloggers:edit.heartbeat'), undefined, { help: t('dataloggers:edit.intervalRange') })}
                </Flex>
              </Flex>
            ),
          },
        ]}
      />
      {error && <Alert type="error" showIcon message={error} data-testid="dl-edit-error" />}
    </Form>
  );

  return (
    <DraggableModal
      open
      zIndex={DIALOG_Z}
      title={t('dataloggers:edit.title', { pn })}
      onCancel={onClose}
      onOk={() => void save()}
      okText={t('dataloggers:actions.save')}
      cancelText={t('dataloggers:actions.cancel')}
      okButtonProps={{ disabled: !form, ...({ 'data-testid': 'dl-edit-save' } as Record<`data-${string}`, string>) }}
      confirmLoading={edit.isPending}
      destroyOnHidden
      width={phone ? '100%' : 760}
      style={phone ? { top: 0, maxWidth: '100vw', margin: 0 } : undefined}
      data-testid="dl-edit-dialog"
    >
      {body}
    </DraggableModal>
  );
}

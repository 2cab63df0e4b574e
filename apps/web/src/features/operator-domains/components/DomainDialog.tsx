/**
 * Add or edit a custom domain: host name, manufacturer, the entry page's look and options, its
 * contact, and the logo and background with a preview. Pictures picked here are sent after the
 * domain is saved (a new domain needs its id first); a removal takes effect on save too.
 */
import { useEffect, useRef, useState } from 'react';
import { Alert, Button, Col, Flex, Form, Input, Row, Select, Switch, Typography } from 'antd';
import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  ApiCallError,
  CUSTOM_DOMAIN_IMAGE_EXTENSIONS,
  CUSTOM_DOMAIN_IMAGE_KINDS,
  CUSTOM_DOMAIN_TEXT_MAX,
  LOCALES,
  LOCALE_NAMES,
  type CustomDomainImageKind,
  type CustomDomainRow,
} from '@sunwatch/protocol';
import { apiErrorText, notice } from '../../../app/notify';
import { DraggableModal } from '../../shared/dialog/DraggableModal';
import { useRemoveDomainImage, useSaveDomain, useUploadDomainImage, useVendorCtrlPwds } from '../api/queries';
import {
  domainFormErrors,
  domainFormValuesOf,
  domainWireParams,
  imageFileProblem,
  type DomainFormValues,
} from '../model';

/** What the dialog does with a picture on save. */
type Pick = { file: File; preview: string } | 'remove' | undefined;

function ImagePicker({
  kind,
  current,
  pick,
  onPick,
}: {
  kind: CustomDomainImageKind;
  current: string | undefined;
  pick: Pick;
  onPick: (p: Pick) => void;
}) {
  const { t } = useTranslation('operatorDomains');
  const input = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState('');
  const src = pick === 'remove' ? undefined : (pick?.preview ?? current);
  return (
    <Flex vertical gap={6} data-testid={`domain-image-${kind}`}>
      <Typography.Text>{t(`field.${kind}`)}</Typography.Text>
      <div
        style={{
          height: 96,
          border: '1px dashed rgba(128,128,128,0.5)',
          borderRadius: 6,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          overflow: 'hidden',
          background: 'rgba(128,128,128,0.06)',
        }}
      >
        {src ? (
          <img
            src={src}
            alt={t(`field.${kind}`)}
            style={{ maxWidth: '100%', maxHeight: '100%', objectFit: 'contain' }}
            data-testid={`domain-preview-${kind}`}
          />
        ) : (
          <Typography.Text type="secondary">{t('image.none')}</Typography.Text>
        )}
      </div>
      <input
        ref={input}
        type="file"
        hidden
        accept={CUSTOM_DOMAIN_IMAGE_EXTENSIONS.join(',')}
        data-testid={`domain-file-${kind}`}
        onChange={(e) => {
          const file = e.target.files?.[0];
          e.target.value = '';
          if (!file) return;
          const p = imageFileProblem(file);
          setProblem(p);
          if (p) return;
          if (pick && pick !== 'remove') URL.revokeObjectURL(pick.preview);
          onPick({ file, preview: URL.createObjectURL(file) });
        }}
      />
      <Flex gap={8} wrap>
        <Button size="small" icon={<UploadOutlined />} onClick={() => input.current?.click()}>
          {t('image.choose')}
        </Button>
        {src && (
          <Button
            size="small"
            danger
            icon={<DeleteOutlined />}
            onClick={() => onPick(current ? 'remove' : undefined)}
            data-testid={`domain-remove-${kind}`}
          >
            {t('image.remove')}
          </Button>
        )}
      </Flex>
      <Typography.Text type={problem ? 'danger' : 'secondary'} style={{ fontSize: 12 }}>
        {problem ? t(`error.${problem}`) : t('image.hint')}
      </Typography.Text>
    </Flex>
  );
}

export function DomainDialog({ row, onClose }: { row?: CustomDomainRow; onClose: () => void }) {
  const { t } = useTranslation('operatorDomains');
  const [form] = Form.useForm<DomainFormValues>();
  const save = useSaveDomain();
  const upload = useUploadDomainImage();
  const removeImage = useRemoveDomainImage();
  const [error, setError] = useState<string>();
  const [vendorSearch, setVendorSearch] = useState('');
  const vendors = useVendorCtrlPwds({ page: 0, pagesize: 50, ...(vendorSearch ? { search: vendorSearch } : {}) });
  const [picks, setPicks] = useState<Record<CustomDomainImageKind, Pick>>({ logo: undefined, background: undefined });
  // once saved, a retry (a picture failed) edits the saved domain instead of adding it again
  const [savedId, setSavedId] = useState<number | undefined>(row?.id);
  const languages = Form.useWatch('languages', form) ?? [];

  useEffect(
    () => () => {
      for (const p of Object.values(picks)) if (p && p !== 'remove') URL.revokeObjectURL(p.preview);
    },
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [],
  );

  const rule = (field: keyof DomainFormValues) => ({
    validator: async () => {
      const key = domainFormErrors(form.getFieldsValue(true) as DomainFormValues)[field];
      if (key) throw new Error(t(`error.${key}`));
    },
  });

  const vendorOptions = (vendors.data?.vendors ?? []).map((v) => ({
    value: v.vendorId,
    label: `${v.name || v.usr}${v.vendorCode ? ` (${v.vendorCode})` : ''} · ${v.usr}`,
  }));
  if (row && row.vendorId > 0 && !vendorOptions.some((o) => o.value === row.vendorId)) {
    vendorOptions.unshift({
      value: row.vendorId,
      label: `${row.vendorName}${row.vendorCode ? ` (${row.vendorCode})` : ''}`,
    });
  }

  const submit = async () => {
    let values: DomainFormValues;
    try {
      await form.validateFields();
      values = form.getFieldsValue(true) as DomainFormValues;
    } catch {
      return;
    }
    setError(undefined);
    try {
      let id = savedId;
      try {
        id = await save.mutateAsync({ ...(id !== undefined ? { id } : {}), params: domainWireParams(values) });
      } catch (e) {
        // 271: nothing changed in the fields (only pictures, or a retry)
        if (!(e instanceof ApiCallError && e.err === 271 && id !== undefined)) throw e;
      }
      setSavedId(id);
      for (const kind of CUSTOM_DOMAIN_IMAGE_KINDS) {
        const p = picks[kind];
        if (p === 'remove') await removeImage.mutateAsync({ id: id!, kind });
        else if (p) await upload.mutateAsync({ id: id!, kind, file: p.file });
        setPicks((all) => ({ ...all, [kind]: undefined }));
      }
      void notice().success(t(row ? 'saved' : 'added', { host: values.host.trim().toLowerCase() }));
      onClose();
    } catch (e) {
      setError(apiErrorText(e));
    }
  };

  const text = (name: keyof DomainFormValues, max: number, props: { placeholder?: string } = {}) => (
    <Form.Item name={name} label={t(`field.${name}`)} rules={[rule(name)]} validateTrigger="onBlur">
      <Input maxLength={max} autoComplete="off" data-testid={`domain-field-${name}`} {...props} />
    </Form.Item>
  );
  const localeOptions = LOCALES.map((l) => ({ value: l, label: LOCALE_NAMES[l] }));

  return (
    <DraggableModal
      open
      title={t(row ? 'form.editTitle' : 'form.addTitle')}
      okText={t('save')}
      cancelText={t('cancel')}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={save.isPending || upload.isPending || removeImage.isPending}
      okButtonProps={{ ...{ 'data-testid': 'domain-form-ok' } }}
      width={720}
      style={{ maxWidth: 'calc(100vw - 24px)' }}
    >
      <Form<DomainFormValues>
        form={form}
        layout="vertical"
        initialValues={domainFormValuesOf(row)}
        data-testid="domain-form"
      >
        <Row gutter={12}>
          <Col xs={24} sm={12}>
            {text('host', CUSTOM_DOMAIN_TEXT_MAX.host, { placeholder: 'solar.example.com' })}
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="vendor" label={t('field.vendor')} rules={[rule('vendor')]}>
              <Select
                showSearch
                filterOption={false}
                onSearch={setVendorSearch}
                options={vendorOptions}
                loading={vendors.isFetching}
                placeholder={t('form.pickVendor')}
                data-testid="domain-field-vendor"
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            {text('title', CUSTOM_DOMAIN_TEXT_MAX.title, { placeholder: t('form.titlePlaceholder') })}
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="languages" label={t('field.languages')} extra={t('form.languagesHint')}>
              <Select mode="multiple" allowClear options={localeOptions} data-testid="domain-field-languages" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="forceLanguage" label={t('field.forceLanguage')} rules={[rule('forceLanguage')]}>
              <Select
                allowClear
                placeholder={t('form.noForce')}
                options={languages.length ? localeOptions.filter((o) => languages.includes(o.value)) : localeOptions}
                data-testid="domain-field-forceLanguage"
              />
            </Form.Item>
          </Col>
          <Col xs={12} sm={6}>
            <Form.Item name="demo" label={t('field.demo')} valuePropName="checked">
              <Switch data-testid="domain-field-demo" />
            </Form.Item>
          </Col>
          <Col xs={12} sm={6}>
            <Form.Item name="qrLogin" label={t('field.qrLogin')} valuePropName="checked">
              <Switch data-testid="domain-field-qrLogin" />
            </Form.Item>
          </Col>
          {CUSTOM_DOMAIN_IMAGE_KINDS.map((kind) => (
            <Col xs={24} sm={12} key={kind} style={{ marginBottom: 16 }}>
              <ImagePicker
                kind={kind}
                current={row?.[kind]?.url}
                pick={picks[kind]}
                onPick={(p) => setPicks((all) => ({ ...all, [kind]: p }))}
              />
            </Col>
          ))}
          <Col xs={24} sm={12}>
            {text('englishName', CUSTOM_DOMAIN_TEXT_MAX.name)}
          </Col>
          <Col xs={24} sm={12}>
            {text('email', CUSTOM_DOMAIN_TEXT_MAX.email, { placeholder: 'support@example.com' })}
          </Col>
          <Col xs={24} sm={12}>
            {text('phoneNum', CUSTOM_DOMAIN_TEXT_MAX.phone)}
          </Col>
          <Col xs={24} sm={12}>
            {text('wechat', CUSTOM_DOMAIN_TEXT_MAX.wechat)}
          </Col>
        </Row>
        <Form.Item name="enabled" label={t('field.enabled')} valuePropName="checked">
          <Switch data-testid="domain-field-enabled" />
        </Form.Item>
      </Form>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
        {t('form.effect')}
      </Typography.Paragraph>
      {error && <Alert type="error" showIcon message={error} data-testid="domain-form-error" />}
    </DraggableModal>
  );
}

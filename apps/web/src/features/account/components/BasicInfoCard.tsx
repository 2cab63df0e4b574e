import { useEffect, useState } from 'react';
import { Avatar, Button, Card, Col, Descriptions, Flex, Form, Input, Progress, Row, Space, Typography, Upload } from 'antd';
import { UploadOutlined, UserOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { avatarThumb, imageFileError, type AccountInfoDat } from '@sunwatch/protocol';
import { notice, showApiError } from '../../../app/notify';
import { ruleText } from '../../../app/rule-text';
import { useAvatarUpload, useEditAccountMutation } from '../api/edit-account-mutation';
import type { BASIC_INFO_FIELDS} from './basic-info';
import { basicInfoErrorKey, basicInfoPatch, type BasicInfoValues } from './basic-info';
import { fileUrl } from '../../../app/node-url';

function valuesOf(d: AccountInfoDat): BasicInfoValues {
  return { qname: d.qname ?? '', cname: d.cname ?? '', caddr: d.caddr ?? '', ctel: d.ctel ?? '' };
}

/**
 * Basic info (spec §2 personal settings): the avatar (jpg/png ≤ 8 MB, uploaded to the server,
 * which keeps a thumbnail), the nickname and the company's name, address and phone as editAccount
 * has them. Saving sends only what changed; the account's identity and bindings show read-only.
 */
export function BasicInfoCard({ info }: { info: AccountInfoDat }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<BasicInfoValues>();
  const edit = useEditAccountMutation();
  const avatar = useAvatarUpload();
  const [progress, setProgress] = useState<number | undefined>();
  const initial = valuesOf(info);
  const watched = Form.useWatch([], form) as BasicInfoValues | undefined;
  const dirty = !!watched && Object.keys(basicInfoPatch(initial, { ...initial, ...watched })).length > 0;

  useEffect(() => {
    form.setFieldsValue(valuesOf(info));
    // the form follows the account when it reloads (after a save)
  }, [form, info]);

  const rule = (field: (typeof BASIC_INFO_FIELDS)[number]) => ({
    validator: async (_: unknown, value: string | undefined) => {
      const key = basicInfoErrorKey(field, value);
      if (key) throw new Error(t(key));
    },
  });

  const save = async (values: BasicInfoValues) => {
    const patch = basicInfoPatch(initial, values);
    if (Object.keys(patch).length === 0) return;
    try {
      await edit.mutateAsync(patch);
      void notice().success(t('personal:basic.saved'));
    } catch (e) {
      showApiError(e);
    }
  };

  const upload = async (file: File) => {
    const key = imageFileError(file);
    if (key) {
      void notice().error(ruleText(key));
      return;
    }
    setProgress(0);
    try {
      await avatar.mutateAsync({ file, onProgress: setProgress });
      void notice().success(t('personal:basic.avatarSaved'));
    } catch (e) {
      showApiError(e);
    } finally {
      setProgress(undefined);
    }
  };

  const removeAvatar = async () => {
    try {
      await edit.mutateAsync({ photo: '' });
    } catch (e) {
      showApiError(e);
    }
  };

  const thumb = fileUrl(avatarThumb(info.photo));
  const none = <Typography.Text type="secondary">{t('pages:personal.none')}</Typography.Text>;

  return (
    <Card title={t('pages:personal.basic')} data-testid="basic-info-card">
      <Row gutter={[24, 24]}>
        <Col xs={24} md={8}>
          <Flex vertical align="center" gap={12}>
            <Avatar size={96} src={thumb} icon={<UserOutlined />} alt={t('personal:basic.avatar')} data-testid="basic-avatar" />
            <Upload
              accept=".jpg,.jpeg,.png,image/jpeg,image/png"
              showUploadList={false}
              beforeUpload={(file) => {
                void upload(file);
                return false;
              }}
            >
              <Button icon={<UploadOutlined />} loading={avatar.isPending} data-testid="basic-avatar-upload">
                {t('personal:basic.upload')}
              </Button>
            </Upload>
            {progress !== undefined && <Progress percent={progress} size="small" style={{ width: 160 }} />}
            <Typography.Text type="secondary" style={{ fontSize: 12, textAlign: 'center' }}>
              {t('personal:basic.uploadHint')}
            </Typography.Text>
            {info.photo && (
              <Button size="small" type="link" onClick={() => void removeAvatar()} data-testid="basic-avatar-remove">
                {t('personal:basic.removeAvatar')}
              </Button>
            )}
          </Flex>
        </Col>
        <Col xs={24} md={16}>
          <Descriptions column={1} size="small" style={{ marginBottom: 16 }}>
            <Descriptions.Item label={t('pages:personal.usr')}>
              <span data-testid="basic-usr">{info.usr}</span>
            </Descriptions.Item>
            <Descriptions.Item label={t('pages:personal.role')}>{t(`common:roles.${info.role}`)}</Descriptions.Item>
            <Descriptions.Item label={t('pages:personal.email')}>{info.email || none}</Descriptions.Item>
            <Descriptions.Item label={t('pages:personal.mobile')}>{info.mobile || none}</Descriptions.Item>
          </Descriptions>
          <Form<BasicInfoValues>
            form={form}
            layout="vertical"
            initialValues={initial}
            onFinish={(v) => void save(v)}
            validateTrigger={['onChange', 'onBlur']}
            style={{ maxWidth: 520 }}
          >
            <Form.Item name="qname" label={t('pages:personal.nickname')} rules={[rule('qname')]}>
              <Input maxLength={64} data-testid="basic-qname" />
            </Form.Item>
            <Form.Item name="cname" label={t('personal:basic.company')} rules={[rule('cname')]}>
              <Input maxLength={128} data-testid="basic-cname" />
            </Form.Item>
            <Form.Item name="caddr" label={t('personal:basic.companyAddress')} rules={[rule('caddr')]}>
              <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} maxLength={1024} data-testid="basic-caddr" />
            </Form.Item>
            <Form.Item name="ctel" label={t('personal:basic.companyPhone')} rules={[rule('ctel')]}>
              <Input maxLength={64} inputMode="tel" data-testid="basic-ctel" />
            </Form.Item>
            <Space wrap>
              <Button type="primary" htmlType="submit" loading={edit.isPending} disabled={!dirty} data-testid="basic-save">
                {t('personal:basic.save')}
              </Button>
              <Button disabled={!dirty} onClick={() => form.setFieldsValue(initial)}>
                {t('personal:basic.undo')}
              </Button>
            </Space>
          </Form>
        </Col>
      </Row>
    </Card>
  );
}

import { Button, Tooltip } from 'antd';
import { StarFilled, StarOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useFollowMutation } from '../api/queries';
import type { DeviceTupleLike } from '../paths';

/** Follow / unfollow star of a device (focusDevice / unfocusDevice). */
export function FollowStar({ device, followed }: { device: DeviceTupleLike; followed: boolean }) {
  const { t } = useTranslation();
  const m = useFollowMutation();
  const label = followed ? t('devices:follow.unfollow') : t('devices:follow.follow');
  return (
    <Tooltip title={label}>
      <Button
        type="text"
        size="small"
        aria-label={label}
        aria-pressed={followed}
        loading={m.isPending}
        icon={followed ? <StarFilled style={{ color: '#faad14' }} /> : <StarOutlined />}
        onClick={(e) => {
          e.stopPropagation();
          m.mutate({ device, follow: !followed });
        }}
      />
    </Tooltip>
  );
}

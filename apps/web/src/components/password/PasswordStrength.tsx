import { Flex, Progress, Typography } from 'antd';
import { PASSWORD_STRENGTH_COLORS, passwordStrength, passwordStrengthKey } from '@sunwatch/protocol';
import { ruleText } from '../../app/rule-text';

const PERCENT = { weak: 33, medium: 66, strong: 100 } as const;

/** Strength meter of spec §5: weak red, medium orange, strong green. */
export function PasswordStrength({ value }: { value: string | undefined }) {
  if (!value) return null;
  const s = passwordStrength(value);
  const color = { red: '#ff4d4f', orange: '#fa8c16', green: '#52c41a' }[PASSWORD_STRENGTH_COLORS[s]];
  return (
    <Flex align="center" gap={8} data-testid="password-strength" data-strength={s}>
      <Progress percent={PERCENT[s]} showInfo={false} strokeColor={color} size="small" style={{ width: 160, margin: 0 }} />
      <Typography.Text style={{ color }}>{ruleText(passwordStrengthKey(value))}</Typography.Text>
    </Flex>
  );
}

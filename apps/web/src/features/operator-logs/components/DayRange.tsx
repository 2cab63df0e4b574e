/** A range of local days (yyyy-mm-dd) for the log filters; cleared = the page's default. */
import { DatePicker } from 'antd';
import dayjs from 'dayjs';

export function DayRange({
  value,
  onChange,
  allowClear,
  label,
  testId,
}: {
  value: [string, string] | undefined;
  onChange: (v: [string, string] | undefined) => void;
  allowClear: boolean;
  label: string;
  testId: string;
}) {
  return (
    <DatePicker.RangePicker
      value={value ? [dayjs(value[0]), dayjs(value[1])] : null}
      allowClear={allowClear}
      aria-label={label}
      disabledDate={(d) => d.isAfter(dayjs(), 'day')}
      onChange={(v) => onChange(v?.[0] && v[1] ? [v[0].format('YYYY-MM-DD'), v[1].format('YYYY-MM-DD')] : undefined)}
      style={{ width: 260, maxWidth: '100%' }}
      data-testid={testId}
    />
  );
}

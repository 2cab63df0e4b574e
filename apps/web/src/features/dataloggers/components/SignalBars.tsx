import { signalColor } from '../model/format';

/** Signal strength as five bars (a few spans instead of antd Progress: the list's first load stays small). */
export function SignalBars({ percent, label }: { percent: number; label: string }) {
  const lit = Math.max(0, Math.min(5, Math.ceil(percent / 20)));
  const color = signalColor(percent);
  return (
    <span role="img" aria-label={`${label} ${percent} %`} title={`${percent} %`} style={{ display: 'inline-flex', alignItems: 'flex-end', gap: 2, height: 14 }}>
      {[0, 1, 2, 3, 4].map((i) => (
        <span key={i} style={{ width: 4, height: 4 + i * 2.5, borderRadius: 1, background: i < lit ? color : '#d9d9d9' }} />
      ))}
    </span>
  );
}

/** Small display helpers of the datalogger screens. */

/** Signal bars: red below 30 %, orange below 60 %, else green. */
export function signalColor(percent: number): string {
  if (percent < 30) return '#f5222d';
  if (percent < 60) return '#fa8c16';
  return '#52c41a';
}

/** The device's operation history tab. */
import type { DeviceTabProps } from '../../../app/device-tabs';
import { OperationHistory } from '../components/OperationHistory';

export default function HistoryTab({ device }: DeviceTabProps) {
  return <OperationHistory device={device} />;
}

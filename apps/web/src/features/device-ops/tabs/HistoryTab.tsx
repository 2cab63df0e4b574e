/** The device's operation history tab. */
import type { DeviceTabProps } from '../../../app/device-tabs';
import { OperationHistory } from '../../shared/operations/OperationHistory';

export default function HistoryTab({ device }: DeviceTabProps) {
  return <OperationHistory device={device} />;
}

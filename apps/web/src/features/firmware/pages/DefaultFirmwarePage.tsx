/**
 * admin (classic edition) `setting/firmware/default` tab (issue 13): the default firmware per
 * datalogger type, written by manufacturers (see `useFirmwareWriter`), read by everyone else.
 */
import { useFirmwareWriter } from '../use-firmware-writer';
import { DefaultFirmwareCard } from '../components/DefaultFirmwareCard';

export default function DefaultFirmwarePage() {
  const { canWrite } = useFirmwareWriter();
  return (
    <div data-testid="fw-default-page">
      <DefaultFirmwareCard canWrite={canWrite} />
    </div>
  );
}

import { ApiCallError } from '@sunwatch/protocol';
import { accessFor } from '../../app/access';
import { useSession } from '../../app/use-session';
import { useFirmwareKeys } from './api/queries';

/**
 * Whether the caller may write the library, as the server decides it: only a manufacturer (or a
 * sub-administrator acting for one) reads its signing keys; anyone else gets 11 there, and a
 * read-only account or a role-2 account without the `firmware_upload` button never writes. The
 * write buttons follow this; the server refuses the writes anyway.
 */
export function useFirmwareWriter() {
  const access = accessFor(useSession());
  const keys = useFirmwareKeys();
  const manufacturer = keys.isSuccess;
  const refused = keys.error instanceof ApiCallError && keys.error.err === 11;
  return {
    keys,
    /** The signing keys card shows (the server answered the keys). */
    manufacturer,
    refused,
    canWrite: manufacturer && !access.readOnly && access.hasButton('firmware_upload'),
  };
}

import { currentLocale } from '../../../i18n';
import { bcp47 } from '../../shared/charts/format';

/** Date and time of an entry, to the second, in the reader's locale and timezone. */
export function when(ms: number): string {
  return new Intl.DateTimeFormat(bcp47(currentLocale()), { dateStyle: 'short', timeStyle: 'medium' }).format(
    new Date(ms),
  );
}

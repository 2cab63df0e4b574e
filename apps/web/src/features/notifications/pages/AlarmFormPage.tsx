/** /generalNew/setting/alarmform (spec §2 "alarm settings"): the alarm e-mails of the caller's subscriptions. */
import { SubscriptionsPanel } from '../components/SubscriptionsPanel';

export default function AlarmFormPage() {
  return <SubscriptionsPanel focus="alarm" />;
}

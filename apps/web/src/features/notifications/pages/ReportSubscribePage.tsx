/** /generalNew/setting/reportsubscribe (spec §2 "receiving report"): the report mails of the same subscriptions. */
import { SubscriptionsPanel } from '../components/SubscriptionsPanel';

export default function ReportSubscribePage() {
  return <SubscriptionsPanel focus="report" />;
}

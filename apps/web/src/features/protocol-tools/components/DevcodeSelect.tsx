/** A devcode picker over the shipped definitions (webQueryProtocolDefinitions). */
import { Select } from 'antd';
import { useAllDefinitions } from '../api/queries';

export function DevcodeSelect(props: { value?: number; onChange: (v: number) => void; id?: string; testId?: string }) {
  const q = useAllDefinitions();
  return (
    <Select
      id={props.id}
      data-testid={props.testId}
      style={{ width: '100%' }}
      showSearch
      optionFilterProp="label"
      loading={q.isPending}
      value={props.value}
      onChange={props.onChange}
      options={(q.data?.rows ?? []).map((d) => ({ value: d.devcode, label: `${d.devcode} ${d.name}` }))}
    />
  );
}

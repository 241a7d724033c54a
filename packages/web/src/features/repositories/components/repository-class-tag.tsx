import { CloudServerOutlined, DatabaseOutlined, ClusterOutlined } from '@ant-design/icons';
import { StatusTag } from '../../../components/status-tag';

const CLASSES = {
  local: { tone: 'info', icon: <DatabaseOutlined />, label: 'Local' },
  remote: { tone: 'warning', icon: <CloudServerOutlined />, label: 'Remote' },
  virtual: { tone: 'success', icon: <ClusterOutlined />, label: 'Virtual' },
} as const;

export function RepositoryClassTag({ rclass }: { rclass: 'local' | 'remote' | 'virtual' }) {
  const { tone, icon, label } = CLASSES[rclass];
  return (
    <StatusTag tone={tone} icon={icon}>
      {label}
    </StatusTag>
  );
}

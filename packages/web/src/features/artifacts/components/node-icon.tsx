import {
  CloudDownloadOutlined,
  CloudServerOutlined,
  ClusterOutlined,
  DatabaseOutlined,
  FileOutlined,
  FileZipOutlined,
  FolderOutlined,
  RestOutlined,
} from '@ant-design/icons';

export type NodeKind =
  'local' | 'remote' | 'virtual' | 'cached' | 'trashcan' | 'folder' | 'file' | 'archive' | 'repository';

const ICONS: Record<NodeKind, React.ReactNode> = {
  local: <DatabaseOutlined style={{ color: '#1f4fd1' }} />,
  remote: <CloudServerOutlined style={{ color: '#b45309' }} />,
  virtual: <ClusterOutlined style={{ color: '#15803d' }} />,
  cached: <CloudDownloadOutlined style={{ color: '#b45309' }} />,
  trashcan: <RestOutlined style={{ color: '#9b1c1c' }} />,
  repository: <DatabaseOutlined style={{ color: '#1f4fd1' }} />,
  folder: <FolderOutlined style={{ color: '#a16207' }} />,
  file: <FileOutlined style={{ color: '#4b5563' }} />,
  archive: <FileZipOutlined style={{ color: '#6d28d9' }} />,
};

/** The icon of a tree node: repository kinds, folders, files and archives. */
export function NodeIcon({ kind }: { kind: NodeKind }) {
  return <span aria-hidden="true">{ICONS[kind]}</span>;
}

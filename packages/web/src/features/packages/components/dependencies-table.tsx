import { Empty, Table } from 'antd';

/** A version's declared dependencies, or what to say when it has none. */
export function DependenciesTable({
  dependencies,
  emptyText,
}: {
  dependencies: { name: string; version: string }[];
  emptyText: string;
}) {
  if (!dependencies.length) return <Empty description={emptyText} />;
  return (
    <Table
      size="small"
      rowKey="name"
      pagination={false}
      dataSource={dependencies}
      columns={[
        { title: 'Package', dataIndex: 'name' },
        { title: 'Version range', dataIndex: 'version' },
      ]}
    />
  );
}

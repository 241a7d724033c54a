import { DeleteOutlined, SearchOutlined } from '@ant-design/icons';
import { App, Button, Input, Space } from 'antd';
import { useState, type ReactNode } from 'react';
import { runSafely } from '../api/client';
import { notifySuccess } from '../api/notifications';

/**
 * Row selection and a bulk delete that asks first, for list pages. `consequence` says what
 * deleting the named rows does; the selection clears once they are gone.
 */
export function useBulkDelete(options: {
  noun: string;
  consequence: (names: string) => string;
  remove: (names: string[]) => Promise<unknown>;
}) {
  const [selected, setSelected] = useState<string[]>([]);
  const { modal } = App.useApp();
  const confirmDelete = () =>
    modal.confirm({
      title: `Delete ${selected.length} ${options.noun}${selected.length === 1 ? '' : 's'}?`,
      content: options.consequence(selected.join(', ')),
      okText: 'Delete',
      okButtonProps: { danger: true },
      onOk: () =>
        runSafely(async () => {
          await options.remove(selected);
          notifySuccess(`Deleted ${selected.join(', ')}`);
          setSelected([]);
        }),
    });
  return { selected, setSelected, confirmDelete };
}

/** The filter box and the Delete (n) button above a list. */
export function ListToolbar({
  query,
  onQuery,
  placeholder,
  label,
  width = 300,
  selectedCount,
  onDelete,
  extra,
}: {
  query: string;
  onQuery: (query: string) => void;
  placeholder: string;
  label: string;
  width?: number;
  /** Without them the list has no bulk delete (rows are deleted one at a time). */
  selectedCount?: number;
  onDelete?: () => void;
  /** More bulk actions, after Delete. */
  extra?: ReactNode;
}) {
  return (
    <Space wrap style={{ marginBottom: 16 }}>
      <Input
        allowClear
        prefix={<SearchOutlined />}
        placeholder={placeholder}
        aria-label={label}
        value={query}
        onChange={(e) => onQuery(e.target.value)}
        style={{ width }}
      />
      {onDelete && (
        <Button danger icon={<DeleteOutlined />} disabled={!selectedCount} onClick={onDelete}>
          Delete{selectedCount ? ` (${selectedCount})` : ''}
        </Button>
      )}
      {extra}
    </Space>
  );
}

import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { App, Button, Space, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { runSafely } from '../api/client';
import { notifySuccess } from '../api/notifications';

export interface RowActionsProps {
  /** What the row is called in labels and messages ("provider acme-id"). */
  what: string;
  onEdit?: () => void;
  /**
   * Deletes after the confirmation; the notification says `deleted` when it is done. With
   * `refused`, the button is off and its tooltip says why (what must go first).
   */
  remove?: { run: () => Promise<unknown>; consequence: ReactNode; deleted: string; refused?: string };
  /** Actions shown before Edit and Delete. */
  children?: ReactNode;
}

/** A table row's Edit and Delete buttons, Delete asking first and saying what follows. */
export function RowActions({ what, onEdit, remove, children }: RowActionsProps) {
  const { modal } = App.useApp();
  return (
    <Space size={0}>
      {children}
      {onEdit && (
        <Tooltip title="Edit">
          <Button type="text" icon={<EditOutlined />} aria-label={`Edit ${what}`} onClick={onEdit} />
        </Tooltip>
      )}
      {remove && (
        <Tooltip title={remove.refused ?? 'Delete'}>
          <Button
            type="text"
            danger
            icon={<DeleteOutlined />}
            aria-label={`Delete ${what}`}
            disabled={Boolean(remove.refused)}
            onClick={() =>
              modal.confirm({
                title: `Delete ${what}?`,
                content: remove.consequence,
                okText: 'Delete',
                okButtonProps: { danger: true },
                onOk: () =>
                  runSafely(async () => {
                    await remove.run();
                    notifySuccess(remove.deleted);
                  }),
              })
            }
          />
        </Tooltip>
      )}
    </Space>
  );
}

import { Alert, Empty, Form, Input, Modal, Radio, Select, Space, Spin, Typography } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { ConflictPolicy, CopyMoveReport } from '@arca/contracts';
import { notifySuccess } from '../../../api/notifications';
import { ErrorList } from '../../../components/error-list';
import { messagesOf, useServerErrors } from '../../../lib/server-errors';
import { copyOrMoveItem } from '../api/copy-move-item';
import { useCopyTargets } from '../api/get-allowed-actions';
import { plural } from '../../../components/format';
import { artifactsKeys } from '../api/keys';

export interface CopyMoveModalProps {
  mode: 'copy' | 'move' | undefined;
  repoKey: string;
  path: string;
  onClose: () => void;
  onDone: (target: { repoKey: string; path: string }) => void;
}

/** "Copied 3 files to libs/a: 1 overwritten, 2 skipped." */
export function describeReport(mode: 'copy' | 'move', report: CopyMoveReport): string {
  const verb = mode === 'copy' ? 'Copied' : 'Moved';
  const details = [
    report.overwritten ? `${report.overwritten} overwritten` : '',
    report.skipped ? `${report.skipped} skipped (already there)` : '',
  ].filter(Boolean);
  return `${verb} ${plural(report.files, 'file')} to ${report.repoKey}/${report.path}${details.length ? `: ${details.join(', ')}` : ''}.`;
}

/**
 * Copy or move an item (with everything below it). The picker offers only local repositories of
 * the same package type where the user may deploy; a dry run shows what would happen and which
 * files exist at the target, and the user chooses to overwrite or skip them before anything changes.
 */
export function CopyMoveModal(props: CopyMoveModalProps) {
  // a fresh dialog (and its state) each time it opens
  const { mode } = props;
  return mode ? <CopyMoveDialog key={`${mode}:${props.repoKey}/${props.path}`} {...props} mode={mode} /> : null;
}

function CopyMoveDialog({ mode, repoKey, path, onClose, onDone }: CopyMoveModalProps & { mode: 'copy' | 'move' }) {
  const targets = useCopyTargets(repoKey, path, true);
  const [targetRepo, setTargetRepo] = useState<string>();
  const [targetPath, setTargetPath] = useState(path);
  const [settledPath, setSettledPath] = useState(path);
  const [choice, setChoice] = useState<{ plan: string; policy: ConflictPolicy }>();
  const { errors, clear, capture } = useServerErrors();
  const [busy, setBusy] = useState(false);
  const verb = mode === 'move' ? 'Move' : 'Copy';

  // the dry run follows the chosen target; the path is asked about once typing pauses
  useEffect(() => {
    const timer = setTimeout(() => setSettledPath(targetPath), 250);
    return () => clearTimeout(timer);
  }, [targetPath]);
  const planKey = `${targetRepo}/${settledPath}`;
  const dryRun = useQuery({
    queryKey: artifactsKeys.copyMovePlan(mode, repoKey, path, targetRepo, settledPath),
    queryFn: () =>
      copyOrMoveItem(mode, { repoKey, path, targetRepoKey: targetRepo!, targetPath: settledPath, dryRun: true }),
    enabled: targetRepo !== undefined,
    retry: false,
    gcTime: 0,
  });
  const planning = targetRepo !== undefined && (dryRun.isFetching || settledPath !== targetPath);
  const plan = planning ? undefined : dryRun.data;
  const policy = choice?.plan === planKey ? choice.policy : undefined;
  const planErrors = dryRun.isError && !planning ? messagesOf(dryRun.error) : [];

  const needsChoice = Boolean(plan?.conflictCount) && policy === undefined;
  const submit = async () => {
    if (!targetRepo || !plan) return;
    setBusy(true);
    clear();
    try {
      const report = await copyOrMoveItem(mode, {
        repoKey,
        path,
        targetRepoKey: targetRepo,
        targetPath,
        conflicts: plan.conflictCount ? policy : 'fail',
      });
      notifySuccess(describeReport(mode, report));
      onDone({ repoKey: report.repoKey, path: report.path });
    } catch (error) {
      capture(error);
    } finally {
      setBusy(false);
    }
  };

  const options = (targets.data ?? []).map((r) => ({
    value: r.repoKey,
    label: r.repoKey,
    title: r.description || r.repoKey,
  }));

  return (
    <Modal
      open
      title={`${verb} ${repoKey}/${path}`}
      okText={verb}
      onOk={() => void submit()}
      okButtonProps={{ disabled: !plan || needsChoice || planning }}
      confirmLoading={busy}
      onCancel={onClose}
      destroyOnHidden
    >
      <ErrorList messages={[...errors, ...planErrors]} style={{ marginBottom: 16 }} />
      <Form layout="vertical">
        <Form.Item label="Target repository" htmlFor="copy-target-repo" required>
          <Select
            id="copy-target-repo"
            aria-label="Target repository"
            showSearch={{ optionFilterProp: 'label' }}
            defaultActiveFirstOption={false}
            value={targetRepo}
            onChange={setTargetRepo}
            loading={targets.isPending}
            placeholder="Type to filter local repositories"
            options={options}
            notFoundContent={
              targets.isPending ? (
                <Spin size="small" />
              ) : (
                <Empty
                  image={Empty.PRESENTED_IMAGE_SIMPLE}
                  description="No local repository of this package type where you may deploy."
                />
              )
            }
          />
        </Form.Item>
        <Form.Item label="Target path" htmlFor="copy-target-path" extra="Empty keeps the same path.">
          <Input id="copy-target-path" value={targetPath} onChange={(e) => setTargetPath(e.target.value)} />
        </Form.Item>
      </Form>
      {planning && (
        <Space>
          <Spin size="small" /> <Typography.Text type="secondary">Checking what would happen…</Typography.Text>
        </Space>
      )}
      {plan && (
        <div role="status" aria-live="polite">
          <Typography.Paragraph>
            {plural(plan.files, 'file')} would be {mode === 'move' ? 'moved' : 'copied'} to{' '}
            <Typography.Text code>{`${plan.repoKey}/${plan.path}`}</Typography.Text>.
          </Typography.Paragraph>
          {plan.conflictCount > 0 && (
            <Alert
              type="warning"
              showIcon
              message={`${plural(plan.conflictCount, 'file')} already ${plan.conflictCount === 1 ? 'exists' : 'exist'} at the target`}
              description={
                <>
                  <ul style={{ margin: '4px 0 12px', paddingLeft: 20, maxHeight: 120, overflow: 'auto' }}>
                    {plan.conflicts.map((p) => (
                      <li key={p}>
                        <Typography.Text code>{p}</Typography.Text>
                      </li>
                    ))}
                    {plan.conflictCount > plan.conflicts.length && (
                      <li>…and {plan.conflictCount - plan.conflicts.length} more</li>
                    )}
                  </ul>
                  <Radio.Group
                    aria-label="Files that already exist"
                    value={policy}
                    onChange={(e) => setChoice({ plan: planKey, policy: e.target.value as ConflictPolicy })}
                    options={[
                      { value: 'overwrite', label: 'Overwrite them' },
                      { value: 'skip', label: 'Skip them (keep what is there)' },
                    ]}
                  />
                </>
              }
            />
          )}
        </div>
      )}
    </Modal>
  );
}

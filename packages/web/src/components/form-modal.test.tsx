import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App, Form, Input } from 'antd';
import { describe, expect, it, vi } from 'vitest';
import { ERROR_MESSAGES, REPLICATION_MESSAGES, replicationBodySchema } from '@arca/contracts';
import { ApiError } from '../api/client';
import { schemaField } from '../lib/schema-rules';
import { FormModal } from './form-modal';

interface Values {
  key: string;
  repo_key: string;
}

const fields = replicationBodySchema.shape;

function Dialog({ onSubmit, onClose }: { onSubmit: (values: Values) => Promise<unknown>; onClose: () => void }) {
  const [form] = Form.useForm<Values>();
  return (
    <App>
      <FormModal<Values>
        open
        title="New Replication"
        okText="Create"
        form={form}
        failureText="The replication could not be created"
        onSubmit={onSubmit}
        onClose={onClose}
        initialValues={{ key: '', repo_key: '' }}
      >
        <Form.Item name="key" label="Name" {...schemaField(fields.key)}>
          <Input />
        </Form.Item>
        <Form.Item name="repo_key" label="Local repository" {...schemaField(fields.repo_key)}>
          <Input />
        </Form.Item>
      </FormModal>
    </App>
  );
}

function setup(onSubmit: (values: Values) => Promise<unknown>) {
  const onClose = vi.fn();
  render(<Dialog onSubmit={onSubmit} onClose={onClose} />);
  return { onClose, user: userEvent.setup() };
}

describe('a create dialog on FormModal with the contract’s rules', () => {
  it('marks the fields the schema requires and refuses what the server would, with its messages', async () => {
    const onSubmit = vi.fn(() => Promise.resolve());
    const { user } = setup(onSubmit);
    expect(screen.getByLabelText('Name')).toBeRequired();
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText(REPLICATION_MESSAGES.keyInvalid)).toBeInTheDocument();
    expect(screen.getByText(ERROR_MESSAGES.mandatory)).toBeInTheDocument();
    await user.type(screen.getByLabelText('Name'), 'libs to eu');
    await user.type(screen.getByLabelText('Local repository'), 'libs-local');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText(REPLICATION_MESSAGES.keyInvalid)).toBeInTheDocument();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('shows the server’s refusal above the form and stays open; closes once a save succeeds', async () => {
    let attempt = 0;
    const onSubmit = vi.fn(() =>
      ++attempt === 1
        ? Promise.reject(new ApiError(400, ['The deployment eu is not paired.'], undefined))
        : Promise.resolve(),
    );
    const { user, onClose } = setup(onSubmit);
    await user.type(screen.getByLabelText('Name'), 'libs-to-eu');
    await user.type(screen.getByLabelText('Local repository'), 'libs-local');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('The deployment eu is not paired.')).toBeInTheDocument();
    expect(onSubmit).toHaveBeenCalledWith({ key: 'libs-to-eu', repo_key: 'libs-local' });
    expect(onClose).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
  });

  it('says the action failed when the server gives no reason of its own', async () => {
    const { user } = setup(() => Promise.reject(new ApiError(500, [ERROR_MESSAGES.default], undefined)));
    await user.type(screen.getByLabelText('Name'), 'libs-to-eu');
    await user.type(screen.getByLabelText('Local repository'), 'libs-local');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('The replication could not be created')).toBeInTheDocument();
  });
});

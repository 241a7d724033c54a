import { Button, Flex } from 'antd';

/**
 * The buttons under a page form, in the one order every form uses: Cancel, Reset, then the
 * primary action last, on the right.
 */
export function FormActions({
  primary,
  busy,
  onCancel,
  onReset,
  resetDisabled,
  onPrimary,
}: {
  primary: string;
  busy: boolean;
  onCancel?: () => void;
  onReset?: () => void;
  resetDisabled?: boolean;
  /** Without it the primary button submits the form it is in. */
  onPrimary?: () => void;
}) {
  return (
    <Flex gap={8} justify="flex-end" style={{ marginTop: 20 }}>
      {onCancel && <Button onClick={onCancel}>Cancel</Button>}
      {onReset && (
        <Button disabled={resetDisabled} onClick={onReset}>
          Reset
        </Button>
      )}
      <Button type="primary" htmlType={onPrimary ? 'button' : 'submit'} loading={busy} onClick={onPrimary}>
        {primary}
      </Button>
    </Flex>
  );
}

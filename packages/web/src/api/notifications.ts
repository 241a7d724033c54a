import { NOTIFICATION_DURATION_MS } from '@arca/contracts';

/** What shows notifications; set by the `NotificationBridge` inside the Ant Design `App`. */
export interface Notifier {
  error(message: string): void;
  success(message: string): void;
}

let notifier: Notifier | undefined;

export function setNotifier(next: Notifier | undefined): void {
  notifier = next;
}

export function notifyError(message: string): void {
  notifier?.error(message);
}

export function notifySuccess(message: string): void {
  notifier?.success(message);
}

export const NOTIFICATION_SECONDS = {
  error: NOTIFICATION_DURATION_MS.error / 1000,
  success: NOTIFICATION_DURATION_MS.success / 1000,
};

/**
 * Shows a notification built in toasts.ts: its severity's kind (amber ⚠ for a warning, as the run
 * view's row), its text, and its actions, the one picked handed back to the caller to do.
 */
import * as vscode from 'vscode';
import type { Toast, ToastAction, ToastSubject } from './toasts';

/** What a picked action does; commands.ts knows how. */
export type ActOn = (action: ToastAction, subject: ToastSubject) => Promise<unknown>;

export async function showToast(toast: Toast, act: ActOn): Promise<void> {
  const show =
    toast.severity === 'error'
      ? vscode.window.showErrorMessage
      : toast.severity === 'warning'
        ? vscode.window.showWarningMessage
        : vscode.window.showInformationMessage;
  const picked = await show<ToastAction>(`MarathonMemBench: ${toast.text}`, ...toast.actions);
  if (picked) await act(picked, toast.subject);
}

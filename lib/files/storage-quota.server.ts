/**
 * The storage quotas from the configuration, and the words a user sees when one is reached.
 */
import 'server-only';
import { getConfig } from '@/lib/config.server';
import type { QuotaExceededError, StorageQuota } from '@/lib/db/queries/quota.server';
import { formatBytes } from '@/lib/format';

export function storageQuota(): StorageQuota {
  const { limits } = getConfig();
  return { conversationBytes: limits.conversationStorageBytes, guestBytes: limits.guestStorageBytes };
}

export function quotaMessage(error: QuotaExceededError): string {
  if (error.scope === 'project') return `This project already holds close to its ${formatBytes(error.limitBytes)} of datasets; delete some it no longer needs, or keep this one on your device.`;
  return error.scope === 'conversation'
    ? `This conversation already holds close to its ${formatBytes(error.limitBytes)} of files and outputs; delete some files or start a new conversation.`
    : `You have stored close to the ${formatBytes(error.limitBytes)} allowed per guest; delete files or conversations you no longer need.`;
}

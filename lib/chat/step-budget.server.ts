import 'server-only';
import type { UIMessage } from 'ai';
import { isCodePartType } from '@/lib/targets/registry';

/** Code runs the model has made since the user's last message (one turn). */
export function runsThisTurn(messages: UIMessage[]): number {
  let runs = 0;
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const message = messages[i];
    if (message.role === 'user') break;
    runs += message.parts.filter((part) => isCodePartType(part.type)).length;
  }
  return runs;
}

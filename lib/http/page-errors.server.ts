/**
 * A page's server-side failure, ours to log. Next prints whatever a page throws, whole (a failed
 * query's message holds its parameters: a share page's holds the share's id) and answers with its
 * error boundary: a page wrapped here logs the failure through the app's log (structured, with
 * its code, without the data it carried) and hands Next only the words of its error code and a
 * reference to that log line.
 * Next's own control flow (notFound(), redirect()) passes through untouched.
 */
import 'server-only';
import { unstable_rethrow } from 'next/navigation';
import type { ReactNode } from 'react';
import { logger } from '@/lib/log/logger.server';
import { toAppError } from './to-app-error.server';

export function withPageErrors<P>(page: string, render: (props: P) => Promise<ReactNode>): (props: P) => Promise<ReactNode> {
  return async (props) => {
    try {
      return await render(props);
    } catch (thrown) {
      unstable_rethrow(thrown);
      const error = toAppError(thrown);
      // Next keeps a digest it is given and hands it to the error page: the person can quote it.
      const reference = crypto.randomUUID();
      logger().error({ err: error.cause ?? thrown, code: error.code, page, reference }, 'page could not be loaded');
      throw Object.assign(new Error(error.message), { digest: reference });
    }
  };
}

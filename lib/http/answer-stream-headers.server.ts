/**
 * The headers of every streamed answer (POST /api/chat, and GET /api/chat/<id>/stream that
 * resumes it): the AI SDK's own, with `no-transform`. Next's response compression (and a proxy
 * that honours the directive) then sends each chunk as written: through a compressor a chunk waits
 * for the compressor's flush, a turn of the event loop away, and a burst of the model's chunks
 * held the first bytes of an answer until its end.
 */
import 'server-only';
import { UI_MESSAGE_STREAM_HEADERS } from 'ai';

export const ANSWER_STREAM_HEADERS: Record<string, string> = { ...UI_MESSAGE_STREAM_HEADERS, 'cache-control': 'no-cache, no-transform' };

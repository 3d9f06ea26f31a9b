import { APICallError } from 'ai';
import { describe, expect, it } from 'vitest';
import { classifyModelError } from './model-errors.server';

const apiError = (statusCode: number, responseBody: string, responseHeaders: Record<string, string> = {}) =>
  new APICallError({ message: 'failed', url: 'http://model.test', requestBodyValues: {}, statusCode, responseBody, responseHeaders });

describe('model failures in our words, whichever provider', () => {
  it('takes Gemini’s wait from RetryInfo when no header says it, and a "check quota" 429 is a rate limit', () => {
    const body = JSON.stringify({ error: { code: 429, message: 'Resource has been exhausted (e.g. check quota).', status: 'RESOURCE_EXHAUSTED', details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '12.5s' }] } });
    expect(classifyModelError(apiError(429, body))).toMatchObject({ cause: 'rate-limited', retryable: true, retryAfterSeconds: 13 });
  });

  it('an account out of credit is quota, naming the model’s key variable', () => {
    const anthropic = JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'Your credit balance is too low to access the Anthropic API.' } });
    expect(classifyModelError(apiError(429, anthropic), { apiKeyVariable: 'ANTHROPIC_API_KEY' })).toMatchObject({ cause: 'quota', message: expect.stringContaining('ANTHROPIC_API_KEY') });
    expect(classifyModelError(apiError(429, '{"error":{"code":"insufficient_quota"}}'))).toMatchObject({ cause: 'quota', message: expect.stringContaining('OPENAI_API_KEY') });
  });

  it('Gemini’s invalid key (400 API_KEY_INVALID) is a refused key; an overloaded Gemini or Anthropic is retryable', () => {
    expect(classifyModelError(apiError(400, '{"error":{"status":"INVALID_ARGUMENT","message":"API key not valid. Please pass a valid API key.","details":[{"reason":"API_KEY_INVALID"}]}}'), { apiKeyVariable: 'GOOGLE_GENERATIVE_AI_API_KEY' })).toMatchObject({
      cause: 'auth',
      message: expect.stringContaining('GOOGLE_GENERATIVE_AI_API_KEY'),
    });
    expect(classifyModelError(apiError(529, '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}'))).toMatchObject({ cause: 'provider', retryable: true, message: expect.stringContaining('overloaded') });
    expect(classifyModelError(apiError(503, '{"error":{"code":503,"status":"UNAVAILABLE","message":"The model is overloaded."}}'))).toMatchObject({ cause: 'provider', retryable: true });
  });

  it('an overload inside an open Anthropic stream is retryable too', () => {
    expect(classifyModelError({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } })).toMatchObject({ cause: 'provider', retryable: true });
  });

  it('a plain 400 stays a rejection, not a context overflow', () => {
    expect(classifyModelError(apiError(400, '{"error":{"message":"Invalid value for tools[0]"}}'))).toMatchObject({ cause: 'rejected', retryable: false });
  });
});

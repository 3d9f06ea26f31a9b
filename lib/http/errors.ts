/** JSON error responses with a message a person can act on. */
export function jsonError(status: number, message: string): Response {
  return Response.json({ error: message }, { status });
}

export const notFound = () => jsonError(404, 'Not found.');

/**
 * The model picked in each open conversation's header, read by the chat transport when it sends
 * (the transport is made once, so it reads from here, as it reads the settings). Nothing picked
 * yet: the request says nothing and the server uses the conversation's own model.
 */
const picked = new Map<string, string>();

export function pickModel(conversationId: string, modelId: string): void {
  picked.set(conversationId, modelId);
}

export function pickedModel(conversationId: string): string | undefined {
  return picked.get(conversationId);
}

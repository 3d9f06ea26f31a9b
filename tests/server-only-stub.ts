// Vitest runs server modules outside React's server condition, where 'server-only' would throw.
export {};

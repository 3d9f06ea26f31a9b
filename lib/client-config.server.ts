/** The configuration the page gets (lib/client-config.ts): the server's own fields, picked, and what the page needs of the models. */
import 'server-only';
import { CLIENT_CONFIG_FIELDS, type ClientConfig } from './client-config';
import { defaultModel, getConfig } from './config.server';
import { modelChoice } from './model-catalog.server';
import { APP_VERSION } from './version.server';

export function getClientConfig(): ClientConfig {
  const config = getConfig();
  const fallback = defaultModel();
  const picked = Object.fromEntries(CLIENT_CONFIG_FIELDS.map((field) => [field, config[field]])) as Pick<ClientConfig, (typeof CLIENT_CONFIG_FIELDS)[number]>;
  return {
    ...picked,
    modelLabel: fallback.label,
    isDemo: fallback.provider === 'demo',
    models: config.models.models.map(modelChoice),
    defaultModelId: fallback.id,
    version: APP_VERSION,
  };
}

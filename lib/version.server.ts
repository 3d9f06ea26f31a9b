/** This install's version: package.json's, also the CHANGELOG's newest entry (/api/health and Settings report it). */
import 'server-only';
import packageJson from '@/package.json';

export const APP_VERSION: string = packageJson.version;

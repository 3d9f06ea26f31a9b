import type { Locator } from '@playwright/test';

export declare const USER_RUN_BADGE: { readonly edited: 'edited by you'; readonly rerun: 'run again by you' };
export declare const USER_RUN_PENDING: string;
export declare function editCell(cell: Locator, code: string): Promise<Locator>;
export declare function runTimeMs(text: string | null | undefined): number;

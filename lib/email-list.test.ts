import { describe, expect, it } from 'vitest';
import { emailOnList, parseEmailList } from './email-list.server';

describe('email and domain lists', () => {
  const list = parseEmailList(' Ana@Team.example, @partner.example  other.example\nbo@solo.example');

  it('parses addresses and domains, lower-cased', () => {
    expect(list).toEqual(['ana@team.example', '@partner.example', 'other.example', 'bo@solo.example']);
  });

  it.each([
    ['ana@team.example', true],
    ['ANA@team.example', true],
    ['someone@team.example', false],
    ['x@partner.example', true],
    ['x@other.example', true],
    ['x@sub.other.example', false],
    ['x@partner.example.evil', false],
    ['bo@solo.example', true],
    ['partner.example', false],
    ['@partner.example', false],
  ])('%s → %s', (email, allowed) => {
    expect(emailOnList(email, list)).toBe(allowed);
  });

  it('allows no one from an empty list', () => {
    expect(emailOnList('ana@team.example', parseEmailList(''))).toBe(false);
  });
});

import { describe, expect, test } from 'vitest'
import { canReadOutbox, isLoopback } from '@/lib/mail/outbox-access'

describe('the outbox viewer’s access', () => {
  test('opens to loopback clients in local mode', () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '127.8.9.10'])
      expect(canReadOutbox({ mode: 'local', forwardedFor: address })).toBe(true)
  })

  test('stays closed to other clients without the token', () => {
    for (const address of ['203.0.113.7', '10.0.0.2', '::ffff:192.168.1.2', '', null])
      expect(canReadOutbox({ mode: 'local', forwardedFor: address, token: 's3cret' })).toBe(false)
    expect(
      canReadOutbox({
        mode: 'local',
        forwardedFor: '203.0.113.7',
        token: 's3cret',
        queryToken: 'nope',
      }),
    ).toBe(false)
  })

  test('opens to anyone with OUTBOX_TOKEN, as ?token= or a bearer token', () => {
    const base = { mode: 'local' as const, forwardedFor: '203.0.113.7', token: 's3cret' }
    expect(canReadOutbox({ ...base, queryToken: 's3cret' })).toBe(true)
    expect(canReadOutbox({ ...base, authorization: 'Bearer s3cret' })).toBe(true)
  })

  test('never exists in hosted mode, not even for loopback with the token', () => {
    expect(
      canReadOutbox({ mode: 'hosted', forwardedFor: '127.0.0.1', token: 't', queryToken: 't' }),
    ).toBe(false)
  })

  test('isLoopback refuses look-alikes', () => {
    expect(isLoopback('127.0.0.1.evil.example')).toBe(false)
    expect(isLoopback('1127.0.0.1')).toBe(false)
  })
})

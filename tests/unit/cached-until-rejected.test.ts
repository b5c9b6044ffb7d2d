import { describe, expect, test, vi } from 'vitest'
import { cachedUntilRejected } from '@/lib/cached-until-rejected'

describe('cachedUntilRejected', () => {
  test('loads once and answers every later call with the same value', async () => {
    const load = vi.fn(async () => ({ loaded: true }))
    const get = cachedUntilRejected(load)
    const [a, b] = await Promise.all([get(), get()])
    expect(await get()).toBe(a)
    expect(b).toBe(a)
    expect(load).toHaveBeenCalledTimes(1)
  })

  test('after a failure, the next call loads again (a chunk fetched while offline)', async () => {
    const load = vi
      .fn<() => Promise<string>>()
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValue('code')
    const get = cachedUntilRejected(load)
    await expect(get()).rejects.toThrow('Failed to fetch')
    expect(await get()).toBe('code')
    expect(await get()).toBe('code')
    expect(load).toHaveBeenCalledTimes(2)
  })
})

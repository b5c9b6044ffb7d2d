import type { FilledImageFieldImage } from '@prismicio/client'
import { describe, expect, it } from 'vitest'
import { imageSources } from '@/components/ContentImage'
import { mediaSrcSet, sitePath } from '@/lib/content/media-url'

// Unit tests run with no variables set: local mode, SITE_URL http://localhost:3000.
const SITE = 'http://localhost:3000'

function image(url: string, width: number, height: number): FilledImageFieldImage {
  return {
    id: 'x',
    url,
    alt: null,
    copyright: null,
    dimensions: { width, height },
    edit: { x: 0, y: 0, zoom: 1, background: 'transparent' },
  }
}

describe('sitePath', () => {
  it('turns the embedded API media on SITE_URL into a path, query kept', () => {
    expect(sitePath(`${SITE}/local/prismic/media/photos/a.jpg?auto=compress,format`, SITE)).toBe(
      '/local/prismic/media/photos/a.jpg?auto=compress,format',
    )
  })

  it('leaves other origins, other paths and relative URLs as they are', () => {
    const prismic = 'https://images.prismic.io/repo/a.jpg?auto=compress,format'
    expect(sitePath(prismic, SITE)).toBe(prismic)
    expect(sitePath(`${SITE}/en-us/work`, SITE)).toBe(`${SITE}/en-us/work`)
    expect(sitePath('http://127.0.0.1:3000/local/prismic/media/a.jpg', SITE)).toBe(
      'http://127.0.0.1:3000/local/prismic/media/a.jpg',
    )
    expect(sitePath('/local/prismic/media/a.jpg', SITE)).toBe('/local/prismic/media/a.jpg')
  })

  it('maps every candidate of a srcset', () => {
    expect(
      mediaSrcSet(
        `${SITE}/local/prismic/media/a.jpg?width=320 320w, ${SITE}/local/prismic/media/a.jpg?width=640 640w`,
      ),
    ).toBe('/local/prismic/media/a.jpg?width=320 320w, /local/prismic/media/a.jpg?width=640 640w')
  })
})

describe('imageSources (ContentImage)', () => {
  it('gives an embedded image site-relative candidates up to its own width', () => {
    const { src, srcSet } = imageSources(
      image(`${SITE}/local/prismic/media/photos/a.jpg?auto=compress,format`, 1000, 500),
    )
    expect(src).toBe('/local/prismic/media/photos/a.jpg?auto=compress,format')
    const widths = srcSet!.split(', ').map((c) => Number(c.split(' ')[1]!.replace('w', '')))
    expect(widths).toEqual([160, 320, 480, 640, 828, 1000])
    expect(srcSet!.split(', ').every((c) => c.startsWith('/local/prismic/media/'))).toBe(true)
  })

  it('keeps a crop in every candidate', () => {
    const { srcSet } = imageSources(
      image(
        `${SITE}/local/prismic/media/a.jpg?auto=compress,format&rect=400,0,1600,1600&w=1600&h=1600`,
        1600,
        1600,
      ),
    )
    for (const candidate of srcSet!.split(', '))
      expect(candidate).toMatch(/rect=400%2C0%2C1600%2C1600&width=\d+ \d+w$/)
  })

  it('takes the same path for a Prismic image, absolute as Prismic serves it', () => {
    const { src, srcSet } = imageSources(
      image('https://images.prismic.io/repo/a.jpg?auto=compress,format', 3000, 2000),
    )
    expect(src.startsWith('https://images.prismic.io/repo/a.jpg?')).toBe(true)
    expect(srcSet!.split(', ')).toHaveLength(10)
  })

  it('gives an SVG no srcset: one file fits every screen', () => {
    const { src, srcSet } = imageSources(
      image(`${SITE}/local/prismic/media/images/a.svg?auto=compress,format`, 1600, 1000),
    )
    expect(src).toBe('/local/prismic/media/images/a.svg?auto=compress,format')
    expect(srcSet).toBeUndefined()
  })
})

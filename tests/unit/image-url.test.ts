import { describe, expect, it } from 'vitest'
import { imageView, readImageUrl } from '@services/content-api/images/field'

describe('readImageUrl', () => {
  const origin = {
    url: 'http://api.test/media/photos/a.jpg',
    width: 2400,
    height: 1600,
    raster: true,
  }

  it('reads back the file and the crop of every view imageView serves', () => {
    const crop = { x: 400, y: 0, width: 1600, height: 1600 }
    expect(readImageUrl(imageView(origin, crop).url)).toEqual({ file: origin.url, crop })
    expect(readImageUrl(imageView(origin, crop, { width: 400, height: 400 }).url)).toEqual({
      file: origin.url,
      crop,
    })
    expect(readImageUrl(imageView(origin, undefined, { width: 1200, height: 630 }).url)).toEqual({
      file: origin.url,
      crop: { x: 0, y: 170, width: 2400, height: 1260 },
    })
  })

  it('gives no crop for an uncropped view, an SVG, or a URL without a query', () => {
    expect(readImageUrl(imageView(origin).url)).toEqual({ file: origin.url })
    expect(readImageUrl(imageView(origin, undefined, { width: 1200 }).url)).toEqual({
      file: origin.url,
    })
    const svg = { url: 'http://api.test/media/og.svg', width: 2, height: 2, raster: false }
    expect(readImageUrl(imageView(svg).url)).toEqual({ file: svg.url })
    expect(readImageUrl('http://api.test/media/og.svg')).toEqual({ file: svg.url })
  })

  it('ignores a rect that is not four whole pixel numbers', () => {
    for (const rect of ['1,2,3', '1,2,3,x', '0,0,-5,5', '0.5,0,10,10'])
      expect(readImageUrl(`${origin.url}?auto=compress,format&rect=${rect}`)).toEqual({
        file: origin.url,
      })
  })
})

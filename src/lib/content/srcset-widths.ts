/**
 * The widths a `srcset` offers, in pixels: from a 4rem portrait on a phone (64 CSS px, 112 to 192
 * device px) to a full-width image on a wide, dense screen. Finer than the official helpers'
 * default (640, 828, 1200, 2048, 3840), whose smallest step sends a phone 640 px for a 112 px
 * portrait. The embedded image service renders these ahead of other sizes
 * (services/content-api/images/media.ts): a client asking for made-up sizes never holds a
 * page's images.
 */
export const SRCSET_WIDTHS: readonly number[] = [160, 320, 480, 640, 828, 1080, 1280, 1600, 2048]

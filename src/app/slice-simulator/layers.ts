/**
 * The simulator's wrapper (@prismicio/next's SliceSimulator) is a fixed, opaque layer of its own:
 * z-index 100 and a white background by default. The page's 3D canvas is a fixed layer too, put
 * on `document.body` (`--facet-3d-layer`, 1 on the site): under the wrapper it would draw unseen
 * while the slot's poster fades. In the simulator it sits one above the wrapper, as it sits above
 * the page's content on the site (it draws only inside the slots and takes no pointer events).
 */
export const SIMULATOR_LAYER = 100
export const SIMULATOR_3D_LAYER = SIMULATOR_LAYER + 1

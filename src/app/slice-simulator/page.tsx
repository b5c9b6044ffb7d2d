import { getSlices, type SliceSimulatorParams } from '@prismicio/next'
import { Slices } from '@/components/Slices'
import { getLanguages } from '@/lib/content/languages'
import { sliceContextFor } from '@/lib/content/queries'
import { ClientSliceSimulator } from './ClientSliceSimulator'
import { SIMULATOR_LAYER } from './layers'

/** Slice Machine's simulator: renders the slices it sends, in the master language. */
export default async function SliceSimulatorPage({ searchParams }: SliceSimulatorParams) {
  const { state } = await searchParams
  const { master } = await getLanguages()
  return (
    <ClientSliceSimulator zIndex={SIMULATOR_LAYER}>
      <main id="main">
        <Slices slices={getSlices(state)} context={await sliceContextFor(master)} />
      </main>
    </ClientSliceSimulator>
  )
}

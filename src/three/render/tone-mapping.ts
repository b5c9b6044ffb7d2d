// A look's tone mapping (look.ts) as three's constant. The procedural scenes, which have no look,
// keep R3F's default, ACES Filmic.
import {
  ACESFilmicToneMapping,
  AgXToneMapping,
  NeutralToneMapping,
  type ToneMapping as ThreeToneMapping,
} from 'three'
import type { ToneMapping } from '@rules/look'

const BY_NAME: Record<ToneMapping, ThreeToneMapping> = {
  neutral: NeutralToneMapping,
  agx: AgXToneMapping,
  aces: ACESFilmicToneMapping,
}

/** three's tone mapping for a look's (none: ACES Filmic, R3F's default). */
export function toneMappingOf(name: ToneMapping | undefined): ThreeToneMapping {
  return name ? BY_NAME[name] : ACESFilmicToneMapping
}

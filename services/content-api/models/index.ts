// Model variants by URL (docs/3d-models.md): Facet's parameters, the pipeline, its limits, and
// the service the media route and `/3d-models` share.
export { inspectModel, type ModelStats } from './inspect'
export {
  MODEL_LIMITS,
  MODEL_MAX_BYTES,
  MODEL_MAX_TEXTURE_PIXELS,
  MODEL_MAX_TRIANGLES,
  ModelRefused,
} from './limits'
export { optimizeModel } from './optimize'
export {
  MODEL_PARAMS,
  ModelParamError,
  parseModelParams,
  TIER_BUDGETS,
  TIERS,
  tierParams,
  usdzParams,
  type ModelParams,
  type Tier,
} from './params'
export {
  createModelVariants,
  DEFAULT_MODEL_CACHE,
  modelErrorResponse,
  type ModelSource,
  type ModelVariants,
} from './variants'

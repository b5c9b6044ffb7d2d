/** Field bounds, in characters (declared here, free of zod, so the form's first load stays small). */
export const LIMITS = { name: 100, email: 254, subject: 150, message: 5000 } as const

/** What can be wrong with a field; each code has its words in the slice. */
export type FieldErrorCode = 'required' | 'too_long' | 'email' | 'characters'

// A Turbopack loader for three.js's own modules: the GLSL in their `/* glsl */` template literals
// loses its comments, indentation and blank lines. The minifier leaves a template literal's text
// as it is, and three's shader chunks are about a fifth of the 3D chunk: 36.0 KB gzipped as
// written, 25.9 KB so (next.config.ts). Written here because the tools that do this for three.js
// are webpack and Rollup plugins, which Turbopack does not run. Safe for GLSL, which has no string
// literals: `//` and `/* */` only ever open a comment; every line is kept whole (preprocessor
// directives, `#include <…>`), only stripped of the spaces around it; a template with `${…}` in it
// is left as it is.

/** The GLSL `source`, without comments, indentation or blank lines. */
function minifyGlsl(source) {
  return source
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .split('\n')
    .map((line) => line.replace(/\/\/.*$/, '').trim())
    .filter(Boolean)
    .join('\n')
}

module.exports = function glslMinifyLoader(code) {
  if (!code.includes('/* glsl */')) return code
  return code.replace(/\/\* glsl \*\/\s*`([^`]*)`/g, (whole, glsl) =>
    glsl.includes('${') ? whole : `/* glsl */\`\n${minifyGlsl(glsl)}\n\``,
  )
}

module.exports.minifyGlsl = minifyGlsl

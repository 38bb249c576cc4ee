#version 450
// The probe's vertex shader: counts its own invocations per index value (seed 001's
// per-vertex atomics) and writes OUTPUTS vec4s, so that a cache whose capacity depends
// on the vertex size can be observed (seeds 001 and 002 both checked this).
layout(std430, set = 0, binding = 0) buffer Counts { uint count[]; };
layout(location = 0) out vec4 outs[OUTPUTS];
void main()
{
    atomicAdd(count[gl_VertexIndex], 1u);
    for (int i = 0; i < OUTPUTS; ++i)
        outs[i] = vec4(float(gl_VertexIndex + i));
    // Every vertex at one point: triangles are degenerate and rasterize nothing, while
    // the fragment shader below still keeps every output alive.
    gl_Position = vec4(0.0, 0.0, 0.0, 1.0);
    gl_PointSize = 1.0;
}

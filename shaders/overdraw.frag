#version 450
// Runs only for fragments that passed the depth test (early tests), and counts them per
// pixel and side: covered and shaded come from these counters.
layout(early_fragment_tests) in;
layout(std430, set = 0, binding = 0) buffer Counts { uint count[]; };
layout(push_constant) uniform View {
    vec4 origin_scale;
    ivec4 axes;
} view;
void main()
{
    ivec2 pixel = ivec2(gl_FragCoord.xy);
    atomicAdd(count[(view.axes.w * 256 + pixel.y) * 256 + pixel.x], 1u);
}

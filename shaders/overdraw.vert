#version 450
// The overdraw views (docs/models/overdraw.md): the mesh scaled into a 256-pixel grid and
// seen along one axis; the second side's depth is measured from the far end.
layout(location = 0) in vec3 position;
layout(push_constant) uniform View {
    vec4 origin_scale; // the bounding box's minimum corner, then 256 / its longest side
    ivec4 axes;        // the picture's x and y axes, the depth axis, the side (0 or 1)
} view;
void main()
{
    vec3 p = (position - view.origin_scale.xyz) * view.origin_scale.w;
    float depth = p[view.axes.z];
    if (view.axes.w == 1)
        depth = 256.0 - depth;
    gl_Position = vec4(p[view.axes.x] / 128.0 - 1.0, p[view.axes.y] / 128.0 - 1.0, depth / 256.0, 1.0);
}

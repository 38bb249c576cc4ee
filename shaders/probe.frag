#version 450
// Reads every output of the probe's vertex shader so that no compiler drops them.
layout(location = 0) in vec4 ins[OUTPUTS];
layout(location = 0) out vec4 color;
void main()
{
    vec4 sum = vec4(0.0);
    for (int i = 0; i < OUTPUTS; ++i)
        sum += ins[i];
    color = sum;
}

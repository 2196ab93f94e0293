// ImGui draw lists (and heatmap quads): positions in CSS pixels, mapped to clip space.
// The `#version 300 es` line is prepended by the renderer (web/gl_renderer.cpp).
precision highp float;

uniform vec2 u_display_size;   // the canvas in CSS pixels; (0, 0) is its top-left corner

in vec2 a_position;
in vec2 a_uv;
in vec4 a_color;               // unsigned bytes, normalised to 0..1 by the attribute pointer

out vec2 v_uv;
out vec4 v_color;

void main() {
    v_uv = a_uv;
    v_color = a_color;
    vec2 ndc = a_position / u_display_size * 2.0 - 1.0;
    gl_Position = vec4(ndc.x, -ndc.y, 0.0, 1.0);   // y grows downwards in ImGui, upwards in GL
}

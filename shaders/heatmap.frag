// Heatmaps: a single-channel float texture (one texel per matrix cell) coloured on the GPU.
// Values are mapped linearly from [u_lo, u_hi] to [0, 1] and looked up in one of two maps,
// given as eleven evenly spaced stops and interpolated linearly:
//   u_map == 0  sequential, perceptually uniform: viridis (matplotlib, CC0)
//   u_map == 1  diverging, blue - white - red: ColorBrewer RdBu reversed; centre it with lo = -hi
// A NaN cell (no value, e.g. padding) is drawn grey.
precision highp float;

uniform highp sampler2D u_texture;
uniform float u_lo;
uniform float u_hi;
uniform int u_map;

in vec2 v_uv;
in vec4 v_color;

out vec4 out_color;

const vec3 VIRIDIS[11] = vec3[11](
    vec3(68, 1, 84), vec3(72, 36, 117), vec3(65, 68, 135), vec3(53, 95, 141),
    vec3(42, 120, 142), vec3(33, 145, 140), vec3(34, 168, 132), vec3(68, 191, 112),
    vec3(122, 209, 81), vec3(189, 223, 38), vec3(253, 231, 37));

const vec3 BLUE_WHITE_RED[11] = vec3[11](
    vec3(5, 48, 97), vec3(33, 102, 172), vec3(67, 147, 195), vec3(146, 197, 222),
    vec3(209, 229, 240), vec3(247, 247, 247), vec3(253, 219, 199), vec3(244, 165, 130),
    vec3(214, 96, 77), vec3(178, 24, 43), vec3(103, 0, 31));

vec3 lookup(int map, float t) {
    float x = clamp(t, 0.0, 1.0) * 10.0;
    int i = min(int(floor(x)), 9);
    float f = x - float(i);
    vec3 a = map == 0 ? VIRIDIS[i] : BLUE_WHITE_RED[i];
    vec3 b = map == 0 ? VIRIDIS[i + 1] : BLUE_WHITE_RED[i + 1];
    return mix(a, b, f) / 255.0;
}

void main() {
    float value = texture(u_texture, v_uv).r;
    bool missing = isnan(value);
    float t = (value - u_lo) / max(u_hi - u_lo, 1e-20);
    vec3 rgb = missing ? vec3(0.82) : lookup(u_map, t);
    out_color = vec4(rgb, v_color.a);
}

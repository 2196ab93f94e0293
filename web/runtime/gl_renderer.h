// web/runtime/gl_renderer.h — our WebGL2 renderer for ImGui draw lists, one per GL context (figure).
//
// Two programs, both from shaders/ (embedded by the build): ui.vert + ui.frag for ImGui's
// triangles, ui.vert + heatmap.frag for float textures coloured on the GPU (heatmap.h).
// Every GL object belongs to one context, so each figure has its own renderer, its own font
// texture and its own heatmap textures. Call everything with the figure's context current.
#pragma once
#include <deque>
#include <span>
#include <unordered_map>
#include <vector>

#include <imgui.h>

namespace lb::web {

class GlRenderer {
public:
    // Builds programs and buffers. False (and a console error naming the shader) on failure.
    bool create();
    // The context was lost: every GL name is dead. Drops them without deleting.
    void forget();
    bool ready() const { return ui_program_ != 0; }

    // The texture id of the font atlas that every figure shares: each renderer draws it with
    // its own copy, uploaded by upload_fonts after every atlas rebuild.
    static inline const ImTextureID shared_font_texture = reinterpret_cast<ImTextureID>(intptr_t(-1));
    void upload_fonts(ImFontAtlas& fonts);

    // Draws one frame. Coordinates are CSS pixels; the framebuffer is fb_width × fb_height.
    void render(const ImDrawData& data, int fb_width, int fb_height, ImVec4 clear_color);

    // The float texture holding a heatmap's values (uploaded again only when they change).
    ImTextureID heatmap_texture(ImGuiID id, std::span<const float> values, int rows, int cols);
    // Adds to `list` the commands that draw texture `texture` as a heatmap over [min, max].
    void add_heatmap(ImDrawList& list, ImTextureID texture, ImVec2 min, ImVec2 max,
                     int colormap, float lo, float hi);

private:
    struct HeatmapTexture {
        unsigned texture = 0;
        int rows = 0, cols = 0;
        std::vector<float> values;  // what the texture holds, to skip identical uploads
        bool used = false;          // drawn this frame; unused ones are deleted after render
    };
    struct HeatmapDraw {            // what the heatmap callback needs, alive until render ends
        GlRenderer* renderer;
        int colormap;
        float lo, hi;
    };
    static void use_heatmap_program(const ImDrawList* list, const ImDrawCmd* cmd);
    void use_ui_program();

    unsigned ui_program_ = 0, heatmap_program_ = 0;
    int ui_display_size_ = -1, ui_texture_ = -1;
    int heatmap_display_size_ = -1, heatmap_texture_ = -1, heatmap_lo_ = -1, heatmap_hi_ = -1,
        heatmap_map_ = -1;
    unsigned vertex_array_ = 0, vertex_buffer_ = 0, index_buffer_ = 0;
    unsigned font_texture_ = 0;
    ImVec2 display_size_;
    std::unordered_map<ImGuiID, HeatmapTexture> heatmaps_;
    std::deque<HeatmapDraw> heatmap_draws_;
};

}  // namespace lb::web

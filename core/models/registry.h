// core/models/registry.h — the table of model kinds: one row per kind, saying
// what it is called, which options it takes, and the functions that make,
// count, run and decode it. model.h's functions read this table; they never
// branch on the kind. Adding a kind is its family's file plus one row
// (docs/adding-a-model.md); the generic tests (tests/test_registry.cpp) then
// check it with every other kind.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>
#include "data/dataset.h"
#include "kernels/rng.h"
#include "models/attention_override.h"
#include "models/params.h"

namespace lb {

struct Decoded;

// A scorer as a kind's options spell it. Luong's concat, vᵀ tanh(W_a [s ; h]),
// is the additive scorer with W_a = [W_d W_e]: stored as Scorer::additive,
// spelled "concat".
struct ScorerChoice {
    std::string_view name;
    Scorer scorer;
};

struct ModelKind {
    std::string_view name;                // on the command line, in weights' metadata, JSON and URLs
    // How a sentence names it where "NAME model" would not do ("Transformer"; empty: that), and a
    // narrow column where its model_label would not fit ("tf"; empty: the label).
    std::string_view title;
    std::string_view short_name;
    std::vector<ScorerChoice> scorers;    // those it takes, in the order messages list them;
                                          // empty: it does not score
    Scorer default_scorer = Scorer::additive;
    bool input_feeding = false;           // takes luong.h's input feeding
    bool transformer_options = false;     // takes heads, ffn, memory and dropout
    bool gradient_path = false;           // probes.h can measure its gradient path
    bool two_way_encoder = false;         // its encoder reads both ways: a state is no one character's
    // Adam's learning rate and warm-up steps for this kind unless a run sets them
    // (0: the trainer's defaults).
    float learning_rate = 0.0f;
    int warmup_steps = 0;
    // Zero-filled parameters of a checked config, and their count by formula.
    Params (*make_params)(const ModelConfig&) = nullptr;
    long (*parameter_count)(const ModelConfig&) = nullptr;
    // The performance model (docs/design.md): FLOPs, 2 per multiply-add of the matrix products,
    // of one teacher-forced forward pass of one example with S source tokens (a mean, so not
    // whole) and the config's task's output steps. `lookback bench` states GFLOP/s by it, and
    // `lookback train` refuses a run it estimates at over an hour. Every row has one.
    double (*forward_flops)(const ModelConfig&, double S) = nullptr;
    // Sizes the kind's own buffers for B rows of padded length S (only grows).
    void (*reserve)(Activations&, const ModelConfig&, int B, int S) = nullptr;
    // Teacher-forced mean cross-entropy over the batch's B·T targets; what
    // backward needs stays in the activations. dropout: the generator a model
    // with dropout draws its masks from when training (nullptr: none).
    float (*forward)(Activations&, const Batch&, const Model&, Rng* dropout) = nullptr;
    // ADDS the gradient of the last forward's mean loss into grads.
    void (*backward)(Params& grads, Activations&, const Batch&, const Model&) = nullptr;
    // T greedy steps over src [B, S]: Activations::tokens [B, T] (never pad or start). A kind
    // with attention replaces its weights at the overridden steps (attention_override.h); one
    // without ignores them (counterfactual.h refuses them first).
    void (*greedy_decode)(Activations&, const int32_t* src, const int* src_len, int B, int S,
                          const Model&, AttentionOverrides overrides) = nullptr;
    // The logits [B, T, V] of the last forward or decoding.
    const float* (*logits)(const Activations&) = nullptr;
    // Row b's attention (L real positions of S) of the last decoding into a
    // Decoded; nullptr: the kind has none, and Decoded's maps stay empty.
    void (*read_attention)(Decoded&, const Activations&, const ModelConfig&, int b, int L,
                           int S) = nullptr;
    // The weights [B, T, S] of one map per output step, if the kind has one
    // such map (not the Transformer's heads); else nullptr.
    const float* (*alignment)(const Activations&) = nullptr;
    // A kind with several maps per step: the weights [B, heads, T, S] of the last forward or
    // decoding, and how many heads. nullptr: none.
    const float* (*head_maps)(const Activations&, int& heads) = nullptr;
    // Its attention rows may sum to less than one (a local window cut by the input's ends).
    bool windowed_attention = false;
    // The discrete choices the last forward made, where the loss is only piecewise
    // smooth in the weights (local-p's windows, the feed-forward ReLUs' signs): a
    // central difference that changes one straddles a kink. nullptr: smooth.
    std::vector<int> (*piecewise_choices)(const Activations&) = nullptr;

    // What the command line, the settings, the Lab and the figures ask of a kind, from its row.
    bool has_attention() const { return read_attention != nullptr; }
    bool has_heads() const { return head_maps != nullptr; }  // several maps per output step
    bool has_memory_choice() const { return transformer_options; }  // config.memory: all or first
};

// The lesson's pair sets a model without attention beside one with it: the page's pair of runs,
// the width sweep's two cells of each width and the source's two models. A kind's runs take the
// slot of the side it is on (the Transformer's own pair is indexed by its memory instead).
constexpr size_t plain_slot = 0, attention_slot = 1, pair_slots = 2;
size_t pair_slot(DecoderKind kind);
// The memories a kind's configs can choose, in the order the page's pair and messages list
// them: first, all ({all} without a choice).
std::vector<Memory> memory_choices(DecoderKind kind);
// Whether its decoder reads every encoder state, or the first one only (a memory of first).
bool reads_every_state(const ModelConfig& config);
// The names of the kinds whose rows answer yes ("transformer", "luong and luong-local"), for a message.
std::string kind_names(bool (*which)(const ModelKind&));

// The built-in rows are made in their families' files: plain_kind and attention_kind
// (encoder_decoder.h), transformer_kind (transformer.h), bahdanau_kind (bahdanau.h), luong_kind
// and luong_local_kind (luong.h); registry.cpp lists each beside its id and checks, when
// compiling, that a row's place is its id and that every id has a row.
// For a row whose kind has one map per step (its `alignment`): row b's map [T, L] into d.attention.
void read_step_alignment(Decoded& d, const Activations& a, const ModelConfig& config, int b, int L, int S);

// The row of a kind (std::invalid_argument for an id no row has).
const ModelKind& model_kind(DecoderKind kind);
// Every kind's id, built-in rows first, in the table's order.
std::vector<DecoderKind> model_kinds();
// Appends a row (a test's kind); returns its id. Refuses a name already taken.
DecoderKind register_model_kind(ModelKind row);

// Every configuration a kind's options allow at width H: each scorer it takes,
// with and without input feeding, each memory of a Transformer. What the
// generic tests iterate.
std::vector<ModelConfig> model_variants(DecoderKind kind, int H);

}  // namespace lb

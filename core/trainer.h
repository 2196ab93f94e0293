// core/trainer.h — initialisation, Adam, and an incremental trainer.
//
// The trainer does a bounded amount of work per call (step(n_batches)) and
// returns, so the page can interleave training with drawing. Everything is
// deterministic for a seed: initialisation and epoch shuffling draw from
// lb::Rng only, in a fixed order.
//
// Legend: B batch size, H width; "step" = one batch = one Adam update.
#pragma once
#include <cstdint>
#include <vector>
#include "dataset.h"
#include "model.h"
#include "rng.h"

namespace lb {

// Keras-style initialisation, in named_tensors order: Glorot-uniform input
// kernels and dense/attention matrices, orthogonal recurrent kernels (the
// Keras orthogonal initialiser on the [H, 3H] kernel: Gram–Schmidt of a
// Gaussian matrix, in double), zero biases, embeddings uniform in ±0.05.
void init_params(Params& params, Rng& rng);

struct AdamConfig {
    float learning_rate = 1e-3f;
    float beta1 = 0.9f;
    float beta2 = 0.999f;
    float epsilon = 1e-7f;  // Keras' default
    float clip_norm = 0.0f; // global gradient-norm clipping; 0 = off
};

// Adam's moments (same struct as the parameters) and step count.
struct AdamState {
    Params m, v;
    long t = 0;
};
AdamState make_adam_state(const ModelConfig& config);
// sqrt(Σ g²) over every gradient.
float global_norm(const Params& grads);
// One update (Keras' form): lr_t = lr·√(1−β2ᵗ)/(1−β1ᵗ);
// θ −= lr_t · m / (√v + ε). Clips grads in place first if clip_norm > 0.
void adam_update(Params& params, AdamState& state, Params& grads, const AdamConfig& config);

struct TrainerConfig {
    ModelConfig model;
    AdamConfig adam;
    uint64_t seed = 1;           // initialisation and shuffling
    int batch_size = 64;
    int epochs = 12;             // done() after this many; 0 = never done
    bool evaluate_each_epoch = true;  // held-out exact / per-char after each epoch
};

struct EpochRecord {
    int epoch;         // 1-based
    float train_loss;  // mean of the epoch's batch losses
    float exact;       // held-out exact match (NaN if not evaluated)
    float per_char;    // held-out per-character accuracy (NaN if not evaluated)
};

// Held-out accuracy of greedy decoding against each example's target.
struct Accuracy {
    float exact;     // all 10 characters right
    float per_char;  // fraction of characters right
};
Accuracy evaluate(const Model& model, const std::vector<Example>& examples);

class Trainer {
public:
    // Initialises the model from config.seed. data must outlive the trainer.
    Trainer(const TrainerConfig& config, const DateSplits& data);
    Trainer(const Trainer&) = delete;
    Trainer& operator=(const Trainer&) = delete;

    // Trains up to n_batches batches (fewer if done()); at the end of each
    // epoch records an EpochRecord (evaluating held_out if configured).
    // Returns the number of batches trained.
    int step(int n_batches);
    bool done() const;

    const Model& model() const { return model_; }
    const TrainerConfig& config() const { return config_; }
    const std::vector<float>& loss_history() const { return losses_; }   // one per step
    const std::vector<EpochRecord>& epoch_history() const { return epochs_; }
    int epoch() const { return epoch_; }                 // completed epochs
    int batch_in_epoch() const { return batch_; }        // batches done in the current epoch
    int batches_per_epoch() const;                       // ⌈train size / B⌉ (last one partial)
    long examples_seen() const { return examples_; }

private:
    void start_epoch();

    TrainerConfig config_;
    const DateSplits& data_;
    Model model_;
    Params grads_;
    AdamState adam_;
    Activations acts_;
    Rng rng_;
    std::vector<int> order_;    // this epoch's shuffled example indices
    std::vector<int> indices_;  // the current batch's indices (reused)
    std::vector<float> losses_;
    std::vector<EpochRecord> epochs_;
    double epoch_loss_sum_ = 0;
    int epoch_ = 0, batch_ = 0;
    long examples_ = 0;
};

}  // namespace lb

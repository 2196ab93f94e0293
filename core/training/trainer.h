// core/training/trainer.h — initialisation, Adam, and an incremental trainer.
//
// The trainer does a bounded amount of work per call and returns, so the page
// can interleave training with drawing: step(n_batches) trains whole batches
// (the CLI, the tests); work(max_rows) trains part of a batch or decodes part
// of the held-out split (the page, whose frame is shorter than a batch).
// Both go through the same code, and whole batches give the same numbers
// either way. Everything is deterministic for a seed: initialisation and epoch
// shuffling draw from lb::Rng only, in a fixed order.
//
// Legend: B batch size, H width; "step" = one batch = one Adam update.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>
#include "data/dataset.h"
#include "data/metrics.h"
#include "models/alignment_check.h"
#include "models/model.h"
#include "kernels/rng.h"
#include "settings/run_settings.h"

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
    int warmup_steps = 0;   // the rate rises linearly over the first steps: lr·min(1, t/warmup); 0 = off
};

// Adam's moments (same struct as the parameters) and step count.
struct AdamState {
    Params m, v;
    long t = 0;
};
AdamState make_adam_state(const ModelConfig& config);
// sqrt(Σ g²) over every gradient.
float global_norm(const Params& grads);
// One update (Keras' form): lr_t = lr·min(1, t/warmup)·√(1−β2ᵗ)/(1−β1ᵗ);
// θ −= lr_t · m / (√v + ε). Clips grads in place first if clip_norm > 0.
void adam_update(Params& params, AdamState& state, Params& grads, const AdamConfig& config);

// A run's settings (settings/run_settings.h: the model, epochs, seed, batch size, Adam's rate
// and warmup) and the trainer's own knobs, which no reader sets. Adam's β1, β2 and ε are
// AdamConfig's defaults. epochs = 0 here means never done (the benchmark's runs).
struct TrainerConfig : RunSettings {
    float clip_norm = 0.0f;           // global gradient-norm clipping; 0 = off
    bool evaluate_each_epoch = true;  // held-out exact / per-char / token error rate after each epoch
};

// EpochRecord, what one epoch measured, is data/metrics.h's (the worker's reports carry it).

// Greedy decoding of a split a few rows at a time, then its Metrics: the
// Trainer's held-out evaluation, and the page's evaluation of a given model.
// A model with attention also has each row's teacher-forced map scored against
// the task's known alignment (Metrics::alignment), in the same units of rows.
class SplitEvaluator {
public:
    // examples must outlive this; so must scratch, the activations decoding uses if given (the
    // trainer lends its own: training and decoding never need them at once, and a page worker's
    // memory, which never shrinks, then holds one set, not two).
    explicit SplitEvaluator(const std::vector<Example>& examples, Activations* scratch = nullptr);
    void restart();                               // forgets the predictions and metrics
    void release_scratch();                       // frees what decoding needs; keeps metrics()
    // Decodes up to max_rows more examples (in batches of at most decode_batch_rows) with
    // model; computes metrics() after the last. Returns the rows decoded.
    int work(const Model& model, int max_rows);
    bool done() const { return row_ == int(examples_->size()); }
    int rows_done() const { return row_; }
    int rows_total() const { return int(examples_->size()); }
    const std::optional<Metrics>& metrics() const { return metrics_; }  // once done

private:
    const std::vector<Example>* examples_;
    int row_ = 0;
    std::vector<std::string> predictions_;
    std::vector<int> indices_;
    Activations own_acts_;
    Activations* acts_;         // own_acts_, or the scratch lent
    AlignmentCheck alignment_;  // the maps' scores so far
    bool has_map_ = false;
    std::optional<Metrics> metrics_;
};

class Trainer {
public:
    // Initialises the model from config.seed. data must outlive the trainer.
    Trainer(const TrainerConfig& config, const Splits& data);
    Trainer(const Trainer&) = delete;
    Trainer& operator=(const Trainer&) = delete;

    // Trains up to n_batches batches (fewer if done()); at the end of each
    // epoch records an EpochRecord (evaluating held_out if configured).
    // Finishes a batch or an evaluation that work() left half done (a
    // partial batch counts as one). Returns the number of batches trained.
    int step(int n_batches);
    // The smallest unit: in the training phase, trains up to max_rows rows of
    // the current batch (never past its end) and adds their share (rows / the
    // batch's rows) of the gradient of the batch's mean loss, updating with
    // Adam when the batch is complete; in the evaluating phase (after an
    // epoch's last batch, if evaluate_each_epoch), decodes up to max_rows
    // held-out strings, and after the last one records the epoch. Returns the
    // rows done (0 once done()).
    int work(int max_rows);
    // After the configured epochs, or once a step failed (failure()). A done trainer has let go of
    // its gradients, optimiser state and activations: model(), the histories and metrics() stay.
    bool done() const;
    // Empty while training is sound. Before each update the trainer checks the
    // batch's loss and the gradient's global norm, and after it every weight;
    // if any is not finite (NaN or infinite: a learning rate far too high) the
    // run stops here with this message, and model() keeps the weights of the
    // last sound step: the bad update is never applied.
    const std::string& failure() const { return failure_; }

    enum class Phase { training, evaluating };
    Phase phase() const { return phase_; }
    const Model& model() const { return model_; }
    const TrainerConfig& config() const { return config_; }
    const std::vector<float>& loss_history() const { return losses_; }   // one per step
    const std::vector<EpochRecord>& epoch_history() const { return epochs_; }
    // The Metrics of the last held-out evaluation (none before the first).
    const std::optional<Metrics>& metrics() const { return evaluator_.metrics(); }
    int epoch() const { return epoch_; }                 // completed epochs
    int batch_in_epoch() const { return batch_; }        // batches done in the current epoch
    int batches_per_epoch() const;                       // ⌈train size / B⌉ (last one partial)
    int batch_rows() const;                              // rows of the current batch (B or fewer)
    int rows_into_batch() const { return row_; }         // of those, already trained
    // Rows left in the current unit: of the batch while training, of the
    // held-out split while evaluating.
    int rows_left() const;
    long examples_seen() const { return examples_; }     // training rows, counted per row
    // Of the configured epochs, counting a held-out row like a training row;
    // 0 when epochs = 0 (never done).
    double fraction_done() const;

private:
    void start_epoch();
    void train_rows(int rows);
    void release_scratch();
    void finish_epoch();
    void stop(const char* what, double value);

    TrainerConfig config_;
    const Splits& data_;
    Model model_;
    Params grads_, chunk_grads_;  // the batch's gradient; one chunk's (partial batches only)
    Params last_sound_;           // the weights before the current update (the guard's copy)
    AdamState adam_;
    Activations acts_;
    Rng rng_;
    // A Transformer's dropout masks: a stream of their own, so the data order
    // is the same with and without dropout.
    static constexpr uint64_t dropout_stream = 0x64726f706f7574ULL;  // "dropout"
    Rng dropout_rng_;
    std::vector<int> order_;    // this epoch's shuffled example indices
    std::vector<int> indices_;  // the current batch's indices (reused)
    std::vector<float> losses_;
    std::vector<EpochRecord> epochs_;
    SplitEvaluator evaluator_;  // of data_.held_out
    Phase phase_ = Phase::training;
    double batch_loss_ = 0;     // the chunks' losses weighted by their share
    double epoch_loss_sum_ = 0;
    int epoch_ = 0, batch_ = 0, row_ = 0;
    long examples_ = 0;
    std::string failure_;
};

}  // namespace lb

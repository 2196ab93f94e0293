// core/training/trainer.cpp — initialisation, Adam and the incremental trainer (see
// trainer.h).
//
// Legend: B batch size, H width, G = 3H, E input width of a GRU.
#include "training/trainer.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace lb {

namespace {

void fill_uniform(float* data, size_t size, float limit, Rng& rng) {
    for (size_t i = 0; i < size; ++i) data[i] = rng.uniform(-limit, limit);
}

// Glorot uniform: U(±√(6 / (fan_in + fan_out))).
void glorot(float* data, size_t size, size_t fan_in, size_t fan_out, Rng& rng) {
    fill_uniform(data, size, float(std::sqrt(6.0 / double(fan_in + fan_out))), rng);
}

// Keras' orthogonal initialiser on its recurrent kernel [H, 3H]: a Gaussian
// [3H, H] matrix, QR, signs fixed so diag(R) > 0, Q transposed. Our weight_hh
// [3H, H] is that kernel transposed, so it is Q itself: the Gaussian's
// columns, orthonormalised by Gram–Schmidt in order (which is QR with
// diag(R) > 0). Two passes of modified Gram–Schmidt, in double.
void orthogonal(float* data, size_t rows, size_t cols, Rng& rng) {
    std::vector<double> a(rows * cols);
    for (double& x : a) x = rng.normal();
    auto at = [&](size_t r, size_t c) -> double& { return a[r * cols + c]; };
    for (size_t k = 0; k < cols; ++k) {
        for (int pass = 0; pass < 2; ++pass)
            for (size_t j = 0; j < k; ++j) {
                double dot = 0;
                for (size_t r = 0; r < rows; ++r) dot += at(r, j) * at(r, k);
                for (size_t r = 0; r < rows; ++r) at(r, k) -= dot * at(r, j);
            }
        double norm = 0;
        for (size_t r = 0; r < rows; ++r) norm += at(r, k) * at(r, k);
        norm = std::sqrt(norm);
        for (size_t r = 0; r < rows; ++r) at(r, k) /= norm;
    }
    for (size_t i = 0; i < rows * cols; ++i) data[i] = float(a[i]);
}

bool ends_with(std::string_view s, std::string_view end) {
    return s.size() >= end.size() && s.substr(s.size() - end.size()) == end;
}

}  // namespace

void init_params(Params& params, Rng& rng) {
    for (NamedTensor& t : named_tensors(params)) {
        const std::string_view name = t.name;
        const bool matrix = t.shape.size() == 2;
        if (ends_with(name, "embedding.weight")) {
            fill_uniform(t.data, t.size, 0.05f, rng);
        } else if (name.find(".norm") != std::string_view::npos && ends_with(name, ".weight")) {
            std::fill(t.data, t.data + t.size, 1.0f);  // LayerNorm γ = 1 (β = 0 below)
        } else if (ends_with(name, "weight_hh_l0") || ends_with(name, "weight_hh_l0_reverse")) {
            orthogonal(t.data, t.shape[0], t.shape[1], rng);
        } else if (matrix) {
            // weight_ih [3H, E], out.weight [13, H], W_e / W_d / W [H, H]:
            // fan_in = columns (inputs), fan_out = rows (outputs)
            glorot(t.data, t.size, t.shape[1], t.shape[0], rng);
        } else if (name == "attention.v" || name == "attention.v_p") {
            glorot(t.data, t.size, t.size, 1, rng);  // Keras Dense(1) kernel [H, 1]
        } else {
            std::memset(t.data, 0, sizeof(float) * t.size);  // biases
        }
    }
}

AdamState make_adam_state(const ModelConfig& config) {
    return {make_params(config), make_params(config), 0};
}

float global_norm(const Params& grads) {
    double sum = 0;
    for (const TensorSpan& t : tensor_spans(const_cast<Params&>(grads)))
        for (size_t i = 0; i < t.size; ++i) sum += double(t.data[i]) * t.data[i];
    return float(std::sqrt(sum));
}

void adam_update(Params& params, AdamState& state, Params& grads, const AdamConfig& config) {
    if (config.clip_norm > 0) {
        const float norm = global_norm(grads);
        if (norm > config.clip_norm) {
            const float scale = config.clip_norm / norm;
            for (const TensorSpan& g : tensor_spans(grads))
                for (size_t i = 0; i < g.size; ++i) g.data[i] *= scale;
        }
    }
    state.t += 1;
    const double t = double(state.t);
    const float b1 = config.beta1, b2 = config.beta2;
    double rate = config.learning_rate;
    if (config.warmup_steps > 0) rate *= std::min(1.0, t / config.warmup_steps);
    const float lr = float(rate * std::sqrt(1.0 - std::pow(double(b2), t)) /
                           (1.0 - std::pow(double(b1), t)));
    const auto p = tensor_spans(params), g = tensor_spans(grads);
    const auto m = tensor_spans(state.m), v = tensor_spans(state.v);
    for (int k = 0; k < tensor_slots; ++k) {
        float *pk = p[k].data, *mk = m[k].data, *vk = v[k].data;
        const float* gk = g[k].data;
        for (size_t i = 0; i < p[k].size; ++i) {
            mk[i] = b1 * mk[i] + (1.0f - b1) * gk[i];
            vk[i] = b2 * vk[i] + (1.0f - b2) * gk[i] * gk[i];
            pk[i] -= lr * mk[i] / (std::sqrt(vk[i]) + config.epsilon);
        }
    }
}

SplitEvaluator::SplitEvaluator(const std::vector<Example>& examples, Activations* scratch)
    : examples_(&examples), acts_(scratch ? scratch : &own_acts_) {}

void SplitEvaluator::release_scratch() {
    own_acts_ = {};
    predictions_ = {};
    indices_ = {};
}

void SplitEvaluator::restart() {
    row_ = 0;
    predictions_.clear();
    alignment_ = {};
    metrics_.reset();
}

int SplitEvaluator::work(const Model& model, int max_rows) {
    const int first = row_;
    const int last = std::min(rows_total(), row_ + std::max(max_rows, 0));
    while (row_ < last) {
        const int B = std::min(decode_batch_rows, last - row_);
        indices_.resize(size_t(B));
        std::iota(indices_.begin(), indices_.end(), row_);
        const Task& task = *model.config.task;
        const Batch batch = make_batch(task, *examples_, indices_);
        Activations& acts = *acts_;
        greedy_decode_batch(acts, batch.src.data(), batch.src_len.data(), batch.B, batch.S, model);
        for (int b = 0; b < B; ++b)
            predictions_.push_back(task.output.decode(acts.tokens.data() + size_t(b) * acts.T, acts.T));
        has_map_ = add_alignment_scores(alignment_, acts, model, *examples_, size_t(row_), size_t(row_ + B));
        row_ += B;
    }
    if (done() && !metrics_ && !examples_->empty()) {
        metrics_ = evaluate_predictions(*model.config.task, *examples_, predictions_);
        if (has_map_) metrics_->alignment = alignment_.map;
    }
    return row_ - first;
}

Trainer::Trainer(const TrainerConfig& config, const Splits& data)
    : config_(config),
      data_(data),
      model_(make_model(config.model)),
      grads_(make_params(config.model)),
      chunk_grads_(make_params(config.model)),
      last_sound_(make_params(config.model)),
      adam_(make_adam_state(config.model)),
      rng_(config.seed),
      dropout_rng_(config.seed ^ dropout_stream),
      evaluator_(data.held_out, &acts_) {
    if (config.batch_size < 1) throw std::invalid_argument("batch size must be at least 1");
    if (data.train.empty()) throw std::invalid_argument("no training examples");
    init_params(model_.params, rng_);
    order_.resize(data.train.size());
    std::iota(order_.begin(), order_.end(), 0);
    indices_.reserve(size_t(config.batch_size));
    start_epoch();
}

int Trainer::batches_per_epoch() const {
    return lb::batches_per_epoch(long(data_.train.size()), config_.batch_size);
}

int Trainer::batch_rows() const {
    const size_t first = size_t(batch_) * size_t(config_.batch_size);
    return int(std::min(order_.size() - first, size_t(config_.batch_size)));
}

int Trainer::rows_left() const {
    return phase_ == Phase::evaluating ? evaluator_.rows_total() - evaluator_.rows_done()
                                       : batch_rows() - row_;
}

bool Trainer::done() const {
    return !failure_.empty() || (config_.epochs > 0 && epoch_ >= config_.epochs);
}

void Trainer::stop(const char* what, double value) {
    char text[320];
    std::snprintf(text, sizeof text,
                  "training stopped at step %zu (epoch %d): %s is not finite (%s), so the "
                  "weights would be too; the learning rate %g is probably too high. The model "
                  "keeps the weights of step %zu.",
                  losses_.size() + 1, epoch_ + 1, what, std::isnan(value) ? "nan" : "infinite",
                  double(config_.learning_rate), losses_.size());
    failure_ = text;
    row_ = 0;
    batch_loss_ = 0;
}

double Trainer::fraction_done() const {
    if (config_.epochs <= 0) return 0;
    if (epoch_ >= config_.epochs) return 1;
    const bool evaluates = config_.evaluate_each_epoch && !data_.held_out.empty();
    const double train = double(data_.train.size());
    const double per_epoch = train + (evaluates ? double(data_.held_out.size()) : 0.0);
    const double within = phase_ == Phase::evaluating
                              ? train + evaluator_.rows_done()
                              : double(batch_) * config_.batch_size + row_;
    return (epoch_ * per_epoch + within) / (config_.epochs * per_epoch);
}

// Fisher–Yates over the previous order, from the trainer's Rng.
void Trainer::start_epoch() {
    for (size_t i = order_.size() - 1; i > 0; --i) std::swap(order_[i], order_[rng_.below(i + 1)]);
    batch_ = 0;
    row_ = 0;
    epoch_loss_sum_ = 0;
}

// Rows [row_, row_ + rows) of the current batch. model_backward gives the
// gradient of the chunk's own mean loss; the batch's mean loss is the chunks'
// means weighted by their share of its rows, and so is its gradient. A whole
// batch goes straight into grads_ (share 1).
void Trainer::train_rows(int rows) {
    const int B = batch_rows();
    const size_t first = size_t(batch_) * size_t(config_.batch_size) + size_t(row_);
    indices_.assign(order_.begin() + long(first), order_.begin() + long(first + size_t(rows)));
    const Batch batch = make_batch(*config_.model.task, data_.train, indices_);
    const float loss = model_forward(acts_, batch, model_, &dropout_rng_);
    if (row_ == 0) zero_params(grads_);
    if (rows == B) {
        model_backward(grads_, acts_, batch, model_);
        batch_loss_ = loss;
    } else {
        zero_params(chunk_grads_);
        model_backward(chunk_grads_, acts_, batch, model_);
        const float share = float(rows) / float(B);
        const auto total = tensor_spans(grads_), part = tensor_spans(chunk_grads_);
        for (int k = 0; k < tensor_slots; ++k)
            for (size_t i = 0; i < total[k].size; ++i) total[k].data[i] += share * part[k].data[i];
        batch_loss_ += double(share) * loss;
    }
    row_ += rows;
    examples_ += rows;
    if (row_ < B) return;

    // The guard (see failure()): NaN in the loss or the gradient would reach
    // every weight through this update, and an overflowing update would too.
    const float norm = global_norm(grads_);
    if (!std::isfinite(batch_loss_)) return stop("the loss", batch_loss_);
    if (!std::isfinite(norm)) return stop("the gradient's global norm", norm);
    const auto weights = tensor_spans(model_.params), saved = tensor_spans(last_sound_);
    for (int k = 0; k < tensor_slots; ++k)
        std::copy(weights[k].data, weights[k].data + weights[k].size, saved[k].data);
    AdamConfig adam;
    adam.learning_rate = config_.learning_rate;
    adam.warmup_steps = config_.warmup_steps;
    adam.clip_norm = config_.clip_norm;
    adam_update(model_.params, adam_, grads_, adam);
    for (int k = 0; k < tensor_slots; ++k)
        for (size_t i = 0; i < weights[k].size; ++i)
            if (!std::isfinite(weights[k].data[i])) {
                const float bad = weights[k].data[i];
                for (int j = 0; j < tensor_slots; ++j)
                    std::copy(saved[j].data, saved[j].data + saved[j].size, weights[j].data);
                return stop("a weight after the update", bad);
            }
    losses_.push_back(float(batch_loss_));
    epoch_loss_sum_ += batch_loss_;
    batch_loss_ = 0;
    row_ = 0;
    if (++batch_ < batches_per_epoch()) return;
    if (config_.evaluate_each_epoch && !data_.held_out.empty()) {
        phase_ = Phase::evaluating;
        evaluator_.restart();
    } else {
        finish_epoch();
    }
}

void Trainer::finish_epoch() {
    EpochRecord record{epoch_ + 1, float(epoch_loss_sum_ / batch_),
                       std::numeric_limits<float>::quiet_NaN(),
                       std::numeric_limits<float>::quiet_NaN()};
    if (phase_ == Phase::evaluating) {
        record.exact = float(evaluator_.metrics()->exact);
        record.per_char = float(evaluator_.metrics()->per_char);
        record.bleu = float(evaluator_.metrics()->bleu);
        record.token_error_rate = float(evaluator_.metrics()->token_error_rate);
        if (evaluator_.metrics()->alignment) record.aer = float(evaluator_.metrics()->alignment->aer());
    }
    epochs_.push_back(record);
    phase_ = Phase::training;
    ++epoch_;
    start_epoch();
}

int Trainer::work(int max_rows) {
    if (done() || max_rows <= 0) return 0;
    int rows = 0;
    if (phase_ == Phase::evaluating) {
        rows = evaluator_.work(model_, max_rows);
        if (evaluator_.done()) finish_epoch();
    } else {
        rows = std::min(max_rows, batch_rows() - row_);
        train_rows(rows);
    }
    if (done()) release_scratch();
    return rows;
}

// A finished run keeps its weights, histories and last metrics; what only training needs goes,
// so that the next run on the same training worker reuses that memory.
void Trainer::release_scratch() {
    grads_ = {};
    chunk_grads_ = {};
    last_sound_ = {};
    adam_ = {};
    acts_ = {};
    evaluator_.release_scratch();
}

int Trainer::step(int n_batches) {
    int trained = 0;
    while (!done() && (phase_ == Phase::evaluating || trained < n_batches)) {
        const bool training = phase_ == Phase::training;
        work(rows_left());  // the rest of the batch, or of the evaluation
        trained += training;
    }
    return trained;
}

}  // namespace lb

// core/trainer.cpp — initialisation, Adam and the incremental trainer (see
// trainer.h).
//
// Legend: B batch size, H width, G = 3H, E input width of a GRU.
#include "trainer.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
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
        } else if (ends_with(name, "weight_hh_l0")) {
            orthogonal(t.data, t.shape[0], t.shape[1], rng);
        } else if (matrix) {
            // weight_ih [3H, E], out.weight [13, H], W_e / W_d / W [H, H]:
            // fan_in = columns (inputs), fan_out = rows (outputs)
            glorot(t.data, t.size, t.shape[1], t.shape[0], rng);
        } else if (name == "attention.v") {
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
    const float lr = float(config.learning_rate * std::sqrt(1.0 - std::pow(double(b2), t)) /
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

Accuracy evaluate(const Model& model, const std::vector<Example>& examples) {
    if (examples.empty()) return {std::numeric_limits<float>::quiet_NaN(),
                                  std::numeric_limits<float>::quiet_NaN()};
    const std::vector<Decoded> decoded = decode_examples(examples, model, false);
    long exact = 0, chars = 0, total = 0;
    for (size_t i = 0; i < examples.size(); ++i) {
        const std::string& want = examples[i].target;
        const std::string& got = decoded[i].output;
        int right = 0;
        for (size_t k = 0; k < want.size(); ++k) right += k < got.size() && got[k] == want[k];
        chars += right;
        total += long(want.size());
        exact += right == int(want.size()) && got.size() == want.size();
    }
    return {float(double(exact) / double(examples.size())), float(double(chars) / double(total))};
}

Trainer::Trainer(const TrainerConfig& config, const DateSplits& data)
    : config_(config),
      data_(data),
      model_(make_model(config.model)),
      grads_(make_params(config.model)),
      adam_(make_adam_state(config.model)),
      rng_(config.seed) {
    if (config.batch_size < 1) throw std::invalid_argument("batch size must be at least 1");
    if (data.train.empty()) throw std::invalid_argument("no training examples");
    init_params(model_.params, rng_);
    order_.resize(data.train.size());
    std::iota(order_.begin(), order_.end(), 0);
    indices_.reserve(size_t(config.batch_size));
    start_epoch();
}

int Trainer::batches_per_epoch() const {
    return int((data_.train.size() + size_t(config_.batch_size) - 1) / size_t(config_.batch_size));
}

bool Trainer::done() const { return config_.epochs > 0 && epoch_ >= config_.epochs; }

// Fisher–Yates over the previous order, from the trainer's Rng.
void Trainer::start_epoch() {
    for (size_t i = order_.size() - 1; i > 0; --i) std::swap(order_[i], order_[rng_.below(i + 1)]);
    batch_ = 0;
    epoch_loss_sum_ = 0;
}

int Trainer::step(int n_batches) {
    int trained = 0;
    for (; trained < n_batches && !done(); ++trained) {
        const size_t first = size_t(batch_) * size_t(config_.batch_size);
        const size_t last = std::min(order_.size(), first + size_t(config_.batch_size));
        indices_.assign(order_.begin() + long(first), order_.begin() + long(last));
        const Batch batch = make_batch(data_.train, indices_);
        const float loss = model_forward(acts_, batch, model_);
        zero_params(grads_);
        model_backward(grads_, acts_, batch, model_);
        adam_update(model_.params, adam_, grads_, config_.adam);
        losses_.push_back(loss);
        epoch_loss_sum_ += loss;
        examples_ += batch.B;
        if (++batch_ == batches_per_epoch()) {
            EpochRecord record{epoch_ + 1, float(epoch_loss_sum_ / batch_),
                               std::numeric_limits<float>::quiet_NaN(),
                               std::numeric_limits<float>::quiet_NaN()};
            if (config_.evaluate_each_epoch && !data_.held_out.empty()) {
                const Accuracy accuracy = evaluate(model_, data_.held_out);
                record.exact = accuracy.exact;
                record.per_char = accuracy.per_char;
            }
            epochs_.push_back(record);
            ++epoch_;
            start_epoch();
        }
    }
    return trained;
}

}  // namespace lb

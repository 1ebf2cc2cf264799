// A small multilayer perceptron, shared by the MLP evaluator and the policy networks: tanh hidden layers
// and one linear output, evaluated on the stack (matrices with compile-time maximum sizes, so search never
// touches the heap).
#pragma once

#include <cstddef>
#include <vector>

#include <Eigen/Core>

namespace meeple {

class SmallMlp {
 public:
  static constexpr int kMaxWidth = 64;  // widest layer, inputs included
  // Each layer holds kMaxWidth^2 floats (16 KB) however narrow: a weight file of a million tiny layers
  // would take gigabytes.
  static constexpr size_t kMaxLayers = 16;
  struct Layer {
    Eigen::MatrixXf weights;  // outputs x inputs
    Eigen::VectorXf bias;
  };
  // Throws std::invalid_argument saying which layer is wrong unless 1 to kMaxLayers layers chain from
  // `inputs` inputs through hidden widths of 1 to kMaxWidth to one output, with finite weights.
  SmallMlp(std::vector<Layer> layers, int inputs);
  const std::vector<Layer>& layers() const { return layers_; }

  // Activations, one column per input evaluated at once (at most MaxColumns).
  template <int MaxColumns>
  using Columns = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor, kMaxWidth, MaxColumns>;

  // The output for each column of x (inputs x columns).
  template <int MaxColumns>
  Eigen::Matrix<float, 1, Eigen::Dynamic, Eigen::RowMajor, 1, MaxColumns> forward(Columns<MaxColumns> x) const {
    for (size_t i = 0; i < fixed_.size(); ++i) {
      Columns<MaxColumns> y(fixed_[i].weights.rows(), x.cols());
      y.noalias() = fixed_[i].weights * x;
      y.colwise() += fixed_[i].bias;
      if (i + 1 < fixed_.size()) y = y.array().tanh();
      x = y;
    }
    return x.row(0);
  }

 private:
  // The layers again with compile-time maximum sizes (Eigen would heap-allocate the temporaries of a
  // MatrixXf product at every call).
  struct FixedLayer {
    Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::ColMajor, kMaxWidth, kMaxWidth> weights;
    Eigen::Matrix<float, Eigen::Dynamic, 1, Eigen::ColMajor, kMaxWidth, 1> bias;
  };
  std::vector<Layer> layers_;
  std::vector<FixedLayer> fixed_;
};

}  // namespace meeple

//===- Rows.h - test data: one row of a block, its head given ---*- C++ -*-===//
#ifndef MXQ_UNITTESTS_REFERENCE_ROWS_H
#define MXQ_UNITTESTS_REFERENCE_ROWS_H

#include <algorithm>
#include <initializer_list>
#include <vector>

namespace mxq::test {
/// A row of `n` floats: `head` first, zeros after.
inline std::vector<float> rowOf(size_t n, std::initializer_list<float> head) {
  std::vector<float> x(n, 0.0f);
  std::copy(head.begin(), head.end(), x.begin());
  return x;
}
} // namespace mxq::test

#endif // MXQ_UNITTESTS_REFERENCE_ROWS_H

//===- Npy.h - reading and writing NumPy .npy files -------------*- C++ -*-===//
//
// The data interface of mxq-run (and later the GPU runner and Python):
// little-endian, C-order arrays. Plain C++.
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_SUPPORT_NPY_H
#define MXQ_SUPPORT_NPY_H

#include <cstdint>
#include <string>
#include <vector>

namespace mxq::npy {

struct Array {
  std::string descr;          ///< NumPy dtype string, e.g. "<f4", "|u1".
  std::vector<int64_t> shape; ///< C order.
  std::vector<uint8_t> data;  ///< Raw little-endian bytes.
};

/// Reads `path`. On failure returns false and sets `error` to a sentence that
/// names the file and the problem.
bool read(const std::string &path, Array &array, std::string &error);

/// Parses the bytes of a .npy file (`name` is what errors call it). On
/// failure returns false and sets `error`.
bool parse(const std::string &content, const std::string &name, Array &array,
           std::string &error);

/// Writes `array` to `path` (format version 1.0).
bool write(const std::string &path, const Array &array, std::string &error);
/// The same from bytes the caller holds (`size` of them at `data`).
bool write(const std::string &path, const std::string &descr,
           const std::vector<int64_t> &shape, const uint8_t *data, size_t size,
           std::string &error);

/// Bytes per element of a descr ("<f4" -> 4), 0 if unknown.
unsigned itemSize(const std::string &descr);

} // namespace mxq::npy

#endif // MXQ_SUPPORT_NPY_H

//===- MemRefDescriptor.h - ranked memref descriptors, plain ----*- C++ -*-===//
//
// How compiled mxq functions take and return buffers through their C
// interface: a ranked memref descriptor is {allocated, aligned, offset,
// sizes[rank], strides[rank]} as 64-bit words. Shared by the JIT runners and
// mxq-gpu-launch (which has no LLVM or MLIR).
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_RUNTIME_MEMREFDESCRIPTOR_H
#define MXQ_RUNTIME_MEMREFDESCRIPTOR_H

#include "mxq/Support/ElementTypes.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <functional>
#include <vector>

namespace mxq::memref {

/// The descriptor of a row-major buffer of `shape` at `data`.
inline std::vector<int64_t> descriptor(void *data,
                                       const std::vector<int64_t> &shape) {
  int64_t rank = shape.size();
  std::vector<int64_t> d(3 + 2 * rank);
  std::memcpy(&d[0], &data, sizeof(void *));
  std::memcpy(&d[1], &data, sizeof(void *));
  int64_t stride = 1;
  for (int64_t i = rank - 1; i >= 0; --i) {
    d[3 + i] = shape[i];
    d[3 + rank + i] = stride;
    stride *= shape[i];
  }
  return d;
}

/// Words of a result struct of descriptors of these ranks (at least 1).
inline size_t resultWords(const std::vector<int64_t> &ranks) {
  size_t words = 0;
  for (int64_t rank : ranks)
    words += 3 + 2 * rank;
  return std::max<size_t>(words, 1);
}

/// The allocated pointer of the descriptor at `w`.
inline void *allocated(const int64_t *w) {
  void *p;
  std::memcpy(&p, &w[0], sizeof(void *));
  return p;
}

/// The bytes of the buffer described at `w` when they are already row-major
/// and dense (what the kernels return; FP4 packed buffers always are), else
/// null.
inline const uint8_t *denseBytes(const int64_t *w, int64_t rank, unsigned bytes,
                                 bool packed = false) {
  uint8_t *aligned;
  std::memcpy(&aligned, &w[1], sizeof(void *));
  if (packed)
    return aligned;
  for (int64_t d = rank - 1, stride = 1; d >= 0; --d) {
    if (w[3 + d] != 1 && w[3 + rank + d] != stride)
      return nullptr;
    stride *= w[3 + d];
  }
  return aligned + w[2] * bytes;
}

/// Reads the buffer described at `w` (rank `rank`, `bytes` per element, any
/// strides) into row-major `data` and its `shape`. `read(dst, src, n)`
/// copies n bytes from the buffer's memory (host or device) to the host; it
/// is called once, on the span the buffer covers. With `packed` (FP4), the
/// buffer holds its elements two per byte, ceil(last / 2) bytes a row (the
/// memory form of mxq-pack-fp4-memory: offset 0, strides unused), read as
/// they are.
inline void
gather(const int64_t *w, int64_t rank, unsigned bytes,
       const std::function<void(void *, const uint8_t *, size_t)> &read,
       std::vector<int64_t> &shape, std::vector<uint8_t> &data,
       bool packed = false) {
  uint8_t *aligned;
  std::memcpy(&aligned, &w[1], sizeof(void *));
  shape.assign(w + 3, w + 3 + rank);
  if (packed) {
    uint64_t total = packedBytes(shape);
    data.assign(total, 0);
    if (total)
      read(data.data(), aligned, total);
    return;
  }
  int64_t count = 1, span = 1;
  for (int64_t d = 0; d < rank; ++d) {
    count *= shape[d];
    if (shape[d] > 0)
      span += (shape[d] - 1) * w[3 + rank + d];
  }
  if (count == 0) {
    data.clear();
    return;
  }
  // Row-major and dense (what the kernels return): one read into `data`,
  // no staging copy.
  if (const uint8_t *dense = denseBytes(w, rank, bytes)) {
    data.resize(count * bytes);
    read(data.data(), dense, data.size());
    return;
  }
  data.assign(count * bytes, 0);
  std::vector<uint8_t> memory(span * bytes);
  read(memory.data(), aligned + w[2] * bytes, memory.size());
  std::vector<int64_t> index(rank, 0);
  for (int64_t e = 0; e < count; ++e) {
    int64_t offset = 0;
    for (int64_t d = 0; d < rank; ++d)
      offset += index[d] * w[3 + rank + d];
    std::memcpy(&data[e * bytes], &memory[offset * bytes], bytes);
    for (int64_t d = rank - 1; d >= 0; --d) {
      if (++index[d] < shape[d])
        break;
      index[d] = 0;
    }
  }
}

} // namespace mxq::memref

#endif // MXQ_RUNTIME_MEMREFDESCRIPTOR_H

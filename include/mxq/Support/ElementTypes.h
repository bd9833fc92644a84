//===- ElementTypes.h - element types in memory and in .npy -----*- C++ -*-===//
//
// The one table of how each element type mxq moves around is stored: bytes
// per element in memory (runners), the .npy dtype that carries it (mxq-run,
// the interpreter, mxq-gpu-launch). Keyed by the MLIR spelling; plain C++ so
// that mxq-gpu-launch (no MLIR) reads the same table.
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_SUPPORT_ELEMENTTYPES_H
#define MXQ_SUPPORT_ELEMENTTYPES_H

#include <cstdint>
#include <string>

namespace mxq {

struct ElementTypeInfo {
  const char *name;     ///< MLIR spelling: "f32", "bf16", "f8E4M3FN", ...
  unsigned bytes;       ///< bytes per element in memory (FP6: one byte; FP4:
                        ///< see `packed`)
  unsigned bits;        ///< bits that carry the value
  const char *npyDescr; ///< the .npy dtype ("<u2": bf16 as bit patterns)
  bool packed;          ///< two per byte along the last axis, in memory and
                        ///< in .npy (FP4; each row starts on a byte)
};

/// Bytes of a row-major tensor of `shape` whose elements are packed two per
/// byte along the last axis, each row on a byte (FP4): ceil(last / 2) a row.
template <typename Shape> inline uint64_t packedBytes(const Shape &shape) {
  uint64_t n = 1;
  size_t rank = shape.size();
  for (size_t d = 0; d < rank; ++d)
    n *= d + 1 == rank ? (uint64_t(shape[d]) + 1) / 2 : uint64_t(shape[d]);
  return n;
}

/// Bytes a row-major tensor of `shape` takes in memory: packedBytes for a
/// packed type, otherwise `bytes` per element. 0 for a null `info`.
template <typename Shape>
inline uint64_t storageBytes(const ElementTypeInfo *info, const Shape &shape) {
  if (!info)
    return 0;
  if (info->packed)
    return packedBytes(shape);
  uint64_t n = info->bytes;
  for (auto d : shape)
    n *= uint64_t(d);
  return n;
}

/// The row of `name`, or null for a type mxq does not move.
inline const ElementTypeInfo *elementTypeInfo(const std::string &name) {
  static const ElementTypeInfo table[] = {
      {"f32", 4, 32, "<f4", false},     {"f16", 2, 16, "<f2", false},
      {"bf16", 2, 16, "<u2", false},    {"f8E4M3FN", 1, 8, "|u1", false},
      {"f8E5M2", 1, 8, "|u1", false},   {"f8E8M0FNU", 1, 8, "|u1", false},
      {"f6E2M3FN", 1, 6, "|u1", false}, {"f6E3M2FN", 1, 6, "|u1", false},
      {"f4E2M1FN", 1, 4, "|u1", true},  {"i8", 1, 8, "|i1", false},
      {"i16", 2, 16, "<i2", false},     {"i32", 4, 32, "<i4", false},
      {"i64", 8, 64, "<i8", false},
  };
  for (const ElementTypeInfo &row : table)
    if (name == row.name)
      return &row;
  return nullptr;
}

} // namespace mxq

#endif // MXQ_SUPPORT_ELEMENTTYPES_H

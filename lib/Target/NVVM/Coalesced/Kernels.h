//===- Kernels.h - what the coalesced kernels share -------------*- C++ -*-===//
//
// Private to lib/Target/NVVM/Coalesced: the lane mapping every coalesced
// kernel uses (mxq/Target/NVVM/CoalescedKernels.h says what they are), and
// each op family's patterns. One file per op family: Quantize.cpp,
// Dequantize.cpp, DualQuantize.cpp, TwoLevelQuantize.cpp; the lane helpers
// in Lanes.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_LIB_TARGET_NVVM_COALESCED_KERNELS_H
#define MXQ_LIB_TARGET_NVVM_COALESCED_KERNELS_H

#include "mxq/Conversion/BlockBuilders.h"
#include "mxq/Numerics/Numerics.h"
#include "mxq/Support/Formats.h"
#include "mxq/Support/ScaleLayout.h"

#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"

#include <memory>

namespace mxq::nvvm::coalesced {
using namespace mlir;
namespace loops = ::mxq::loops;
namespace num = ::mxq::numerics;
namespace dialect = ::mlir::mxq;

constexpr int64_t kThreads = 256; ///< threads per thread block
constexpr int64_t kBlock = 32;    ///< the MX block these kernels take

/// Where a lane works: its row (the indices before the last axis), the
/// block along the last axis, its first column, how many of its `lanes`
/// elements exist, and whether it is a thread past the end.
struct LanePlace {
  SmallVector<Value> lead;
  Value blk, col0, count, full, valid, lane;
};

Value idx(OpBuilder &b, Location l, int64_t v);
/// A buffer of `tensor` for the kernel to read (bufferization makes it the
/// caller's device buffer).
Value bufferOf(OpBuilder &b, Location l, Value tensor);
/// A new buffer of `sizes` x `elt`.
Value allocate(OpBuilder &b, Location l, ArrayRef<OpFoldResult> sizes,
               Type elt);
Value asTensor(OpBuilder &b, Location l, Value buffer);
/// The unsigned maximum of `bits` (i32) over the lanes `lane ^ d` for d in
/// `offsets` (butterfly shuffles).
Value laneMax(OpBuilder &b, Location l, Value bits, ArrayRef<int64_t> offsets);
/// Sets `p.count`, the elements of the lane at `p.col0` on a row of `size`
/// (clamp(size - col0, 0, elems), 0 unless `live`), and `p.full`.
void countLane(OpBuilder &b, Location l, LanePlace &p, Value size,
               int64_t elems, Value live);
/// The launch of ceil(total / kThreads) thread blocks around `body` (Lanes.cpp
/// says how lanes map to blocks).
void launchLanes(OpBuilder &b, Location l, ArrayRef<Value> shape,
                 Value numBlocks, int64_t lanesPerBlock, int64_t elems,
                 function_ref<void(OpBuilder &, Location, LanePlace &)> body,
                 int64_t blockElems = kBlock);
/// The lane's `elems` elements of `buffer` (Lanes.cpp).
Value readLane(OpBuilder &b, Location l, Value buffer, const LanePlace &p,
               int64_t elems, bool asBits = false);
/// Writes the lane's vector `v` at (lead..., col0) (Lanes.cpp).
void writeLane(OpBuilder &b, Location l, Value v, Value buffer,
               const LanePlace &p, Type codeElt = {});
/// The sizes of `buffer` as index values.
SmallVector<Value> sizesOf(OpBuilder &b, Location l, Value buffer);
/// The pairs layout's padding byte, stored by the last block's lane.
void storePairPadding(OpBuilder &b, Location l, ArrayRef<Value> lead,
                      Value blk, Value numBlocks, Value scales, Type scaleElt);
bool isWideFloat(Type t);
/// LanePlace `p` moved `shift` elements along the row (`elems` a lane).
LanePlace shifted(OpBuilder &b, Location l, const LanePlace &p, Value size,
                  int64_t shift, int64_t elems);

/// Each op family's patterns.
void populateQuantize(RewritePatternSet &patterns,
                      std::shared_ptr<const num::NativeConverts> native);
void populateDequantize(RewritePatternSet &patterns);
void populateDualQuantize(RewritePatternSet &patterns,
                          std::shared_ptr<const num::NativeConverts> native);
void populateTwoLevelQuantize(RewritePatternSet &patterns,
                              std::shared_ptr<const num::NativeConverts> native);

} // namespace mxq::nvvm::coalesced

#endif // MXQ_LIB_TARGET_NVVM_COALESCED_KERNELS_H

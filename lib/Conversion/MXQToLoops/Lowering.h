//===- Lowering.h - what every op family's lowering shares ------*- C++ -*-===//
//
// Internal to convert-mxq-to-loops: the helpers each op family's lowering
// (Quantize.cpp, Dequantize.cpp, DualQuantize.cpp, TwoLevelQuantize.cpp,
// FakeQuant.cpp) builds on, defined in Common.cpp, and one populate function
// per family, which MXQToLoops.cpp puts together.
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_LIB_CONVERSION_MXQTOLOOPS_LOWERING_H
#define MXQ_LIB_CONVERSION_MXQTOLOOPS_LOWERING_H

#include "mxq/Conversion/BlockBuilders.h"
#include "mxq/Conversion/Passes.h"
#include "mxq/Dialect/MXQ/MXQ.h"
#include "mxq/Numerics/Numerics.h"
#include "mxq/Support/ScaleLayout.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/IR/PatternMatch.h"

#include <memory>
#include <tuple>
#include <utility>

namespace mxq::loops {
using namespace mlir;
namespace num = ::mxq::numerics;
namespace dialect = ::mlir::mxq;

/// Marks the loops of a block nest mxq.parallel.
/// Marks the loops of a block nest parallel. With `codes` (the element type
/// of the codes the nest writes along `axis` of rank-`rank` tensors), the
/// loop over the last dimension is parallel only in pairs of iterations
/// where two of them write one byte (FP4 codes, packed two per byte along
/// the last axis, quantized along another axis).
void markParallel(scf::LoopNest &nest, Type codes = {}, int64_t axis = 0,
                  int64_t rank = 0);
/// Loop bounds over the data of `source` with `axis` split into blocks.
void blockLoopBounds(OpBuilder &b, Location loc, Value source, int64_t axis,
                     int64_t block, SmallVector<Value> &lbs,
                     SmallVector<Value> &ubs, SmallVector<Value> &steps);
/// Blocks of at most this many lanes move lane by lane with static indices.
constexpr int64_t kUnrolledLanes = 64;
/// A block longer than kUnrolledLanes is processed in chunks of this many
/// elements (every block size is a multiple of it), in a loop: its amax
/// first, then its codes. One vector of 1024 elements per block unrolls into
/// code that the NVPTX backend takes minutes over and that a GPU thread
/// cannot hold in registers. Max-abs and the elementwise encoding are exact
/// in any order, so the bytes are the same.
constexpr int64_t kChunk = 32;
/// The chunks of the block that starts at `k0` (a chunk's elements are
/// blockCount(size, start, kChunk)): all of them where the block
/// is whole, else those holding an element (the masked lane helpers, like
/// storeLanes, need at least one live lane).
Value chunksOf(OpBuilder &b, Location loc, Value size, Value k0,
               int64_t block, bool inBounds);
/// Stores / loads `lanes` values at static lane indices (see Common.cpp).
void storeLanes(OpBuilder &b, Location loc, int64_t lanes, Value count,
                bool inBounds, function_ref<Value(int64_t)> valueOf,
                function_ref<void(Value, Value)> store);
SmallVector<Value> loadLanes(OpBuilder &b, Location loc, int64_t lanes,
                             Value count, bool inBounds, Value zero,
                             function_ref<Value(Value)> load);
/// Writes / reads the codes (i32 vector) of one block along `axis`.
Value writeCodes(OpBuilder &b, Location loc, Value codes, Value dest,
                 ArrayRef<Value> at, int64_t axis, Value count,
                 bool inBounds = false);
Value readCodes(OpBuilder &b, Location loc, Value source, ArrayRef<Value> at,
                int64_t axis, int64_t block, Value count,
                bool inBounds = false);
/// `body` twice under "the block is whole": unmasked, then masked.
SmallVector<Value>
splitOnWholeBlock(OpBuilder &b, Location loc, Value size, Value k0,
                  int64_t block,
                  function_ref<SmallVector<Value>(OpBuilder &, Location, bool)>
                      body);
/// Elements of the block that starts at `k0` on an axis of `size`.
Value blockCount(OpBuilder &b, Location loc, Value size, Value k0,
                 int64_t block);
/// Reads / writes `lanes` elements along `axis` (16-bit floats as i16).
Value readAlongAxis(OpBuilder &b, Location l, Value source,
                    ArrayRef<Value> at, int64_t axis, int64_t lanes,
                    Value count, bool inBounds);
Value writeAlongAxis(OpBuilder &b, Location l, Value v, Value dest,
                     ArrayRef<Value> at, int64_t axis, Value count,
                     bool inBounds);

/// The patterns of each op family.
void populateQuantizeLowering(RewritePatternSet &patterns,
                              std::shared_ptr<const num::NativeConverts> native);
void populateDequantizeLowering(RewritePatternSet &patterns);
void populateDualQuantizeLowering(
    RewritePatternSet &patterns,
    std::shared_ptr<const num::NativeConverts> native, DualQuantizeForm form);
void populateTwoLevelQuantizeLowering(
    RewritePatternSet &patterns,
    std::shared_ptr<const num::NativeConverts> native);
void populateFakeQuantLowering(RewritePatternSet &patterns,
                               std::shared_ptr<const num::NativeConverts> native);

} // namespace mxq::loops

#endif // MXQ_LIB_CONVERSION_MXQTOLOOPS_LOWERING_H

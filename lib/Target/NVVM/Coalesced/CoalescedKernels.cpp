//===- CoalescedKernels.cpp - lane-cooperative NVIDIA kernels -------------===//
//
// The NVIDIA target's own mapping of the block ops along the last axis (its
// thread mapping, nothing else: every number comes from the shared
// builders, mxq/Conversion/BlockBuilders.h, and the shared numerics).
//
// The shared expansion gives a thread whole blocks; a warp's 32 threads then
// read addresses one block apart, and half of every 32-byte sector they
// touch is wasted. Here a block of 32 elements is spread over L lanes that
// each own one 16-byte chunk of the input (L = 4 for 16-bit inputs, 8 for
// f32; dequantize: 16 bytes of results, so 4 or 8 codes a lane), so
// consecutive lanes access consecutive chunks: a warp's loads and stores
// touch the minimum number of sectors. Quantize combines the lanes'
// absolute maxima with butterfly shuffles (exact: an unsigned maximum of |x| bits, in any order), and the
// first lane of each block stores its scale byte. Every thread of a thread
// block takes part in the shuffles (none leaves early); threads past the
// end compute on nothing and store nothing.
//
// Each op family's kernel is in a file of its own; this one registers them.
//
//===----------------------------------------------------------------------===//
#include "mxq/Target/NVVM/CoalescedKernels.h"
#include "Kernels.h"

void ::mxq::nvvm::populateCoalescedKernelPatterns(
    mlir::RewritePatternSet &patterns,
    std::shared_ptr<const ::mxq::numerics::NativeConverts> native) {
  coalesced::populateQuantize(patterns, native);
  coalesced::populateTwoLevelQuantize(patterns, native);
  coalesced::populateDualQuantize(patterns, native);
  coalesced::populateDequantize(patterns);
}

//===- Passes.td - mxq transformation passes ---------------*- tablegen -*-===//
#ifndef MXQ_TRANSFORMS_PASSES_TD
#define MXQ_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def MXQTile : Pass<"mxq-tile", "::mlir::func::FuncOp"> {
  let summary = "Tile every mxq op into scf.forall (or scf.for) loops";
  let description = [{
    Tiles every mxq op through its `TilingInterface` with
    `scf::tileUsingSCF`. Tile sizes are in the units of the op's iteration
    domain (see `lib/Dialect/MXQ/MXQTiling.cpp`): blocks along the
    quantization axis of a linear layout, block pairs for `pairs`, 128-row
    bands for `swizzle_32_4_4` (whose block axis is not split), 512-element
    level-0 blocks along the last axis of `two_level_quantize`, elements
    elsewhere. So every tile holds whole blocks and writes whole scale
    granules, whatever the sizes. A size of 0 leaves a dimension untiled;
    missing trailing sizes are 0. The default tiles the outermost dimension
    by 16 units, which gives `scf.forall` loops ready to be mapped to GPU
    blocks or Ascend-like cores and cache-sized work on a CPU.
  }];
  let options = [
    ListOption<"tileSizes", "tile-sizes", "int64_t",
               "tile sizes in iteration-domain units (0: untiled)">,
    Option<"loopKind", "loop", "std::string", /*default=*/"\"forall\"",
           "the loops to generate: forall or for">,
  ];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect"];
}

def MXQMaterializeScaleLayout
    : Pass<"mxq-materialize-scale-layout", "::mlir::func::FuncOp"> {
  let summary = "Make scale layouts explicit as mxq.convert_scale_layout";
  let description = [{
    Rewrites `mxq.quantize` with a `swizzle_32_4_4` or `pairs` layout into a
    `linear` quantize followed by `mxq.convert_scale_layout`, and
    `mxq.dequantize` with such a layout into the conversion back to `linear`
    followed by a `linear` dequantize. Targets then lower the numerics on the
    linear block grid and the layout as explicit indexing and stores (the
    lowering of `convert_scale_layout`), separately. The patterns are
    available as `mxq::populateMaterializeScaleLayoutPatterns`.
  }];
}

def MXQParallelizeLoops
    : Pass<"mxq-parallelize-loops", "::mlir::func::FuncOp"> {
  let summary = "Turn the block loops of convert-mxq-to-loops into scf.parallel";
  let description = [{
    After bufferization, rewrites each perfect nest of `scf.for` loops that
    `convert-mxq-to-loops` marked `mxq.parallel` (their iterations write
    disjoint codes and scales) and that carries no values into one
    `scf.parallel`, which upstream passes tile and map to GPU blocks and
    threads (`scf-parallel-loop-tiling`, `gpu-map-parallel-loops`,
    `convert-parallel-loops-to-gpu`) or run on a CPU's threads. It only
    rewrites loops; what a target does with code outside them is its own
    (the NVIDIA pipeline's `mxq-wrap-straight-line-in-kernels`).
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def MXQPackFP4Memory : Pass<"mxq-pack-fp4-memory", "::mlir::ModuleOp"> {
  let summary = "Store FP4 codes two per byte: the memory form of f4E2M1FN";
  let description = [{
    After bufferization, makes mxq's memory form of FP4 (`f4E2M1FN`) codes
    explicit: two codes a byte along the last axis, element 2i in the low
    nibble, each row starting on a byte (`ceil(K / 2)` bytes a row; an odd
    `K` leaves the last high nibble 0). Every memref of `f4E2M1FN` becomes a
    memref of `i8` with the same logical shape (the same descriptor), and
    its loads, stores, 1-d vector transfers, allocations and copies address
    the packed bytes. A transfer of an even number of codes from an even
    column becomes one vector of packed bytes. Codes written as a bitcast of
    bytes (`vector.bitcast` of `vector<n/2 x i8>` to `vector<n x i4>`, then
    `arith.bitcast` to FP4: element 2i the low nibble of byte i, already the
    memory form) are written as those bytes.

    Every target runs it right after bufferization, so the compiled code,
    the runtime's tensors, `.npy` files and the Python package all hold the
    same bytes. Anything else on an FP4 memref (a subview, a strided
    layout) is an error that names the op. The patterns are available as
    `mxq::populatePackFP4MemoryPatterns` with
    `mxq::populatePackFP4MemoryTypeConversion`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
}

def MXQByteSizedMemory : Pass<"mxq-byte-sized-memory"> {
  let summary = "Access sub-byte integers in memory as whole bytes";
  let description = [{
    On the LLVM dialect: rewrites `llvm.store` of an integer narrower than
    a byte (FP4 and FP6 codes, which take one byte each in a memref) into a
    zero-extended `i8` store, and `llvm.load` of one into an `i8` load and a
    truncation. The bytes written are the same (the upper bits, which LLVM
    leaves unspecified, become 0), and LLVM no longer folds the codes into
    vectors of `i4`, which NVPTX legalises through local memory. A vector
    of FP6 codes is stored as one vector of bytes (the CPU target's FP6
    blocks). Both targets run it. The patterns are available as
    `mxq::populateByteSizedMemoryPatterns`.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // MXQ_TRANSFORMS_PASSES_TD

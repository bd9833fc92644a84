//===- Passes.td - mxq transformation passes ----------------*- tablegen -*-===//
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
    `convert-parallel-loops-to-gpu`).
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def MXQCheckNVGPUTarget : Pass<"mxq-check-nvgpu-target", "::mlir::ModuleOp"> {
  let summary = "Reject an NVIDIA chip or PTX version that cannot express the request";
  let description = [{
    The first pass of `mxq-gpu-pipeline`: asks the target description
    (`mxq/Target/NVGPU.h`) whether `chip` exists and accepts PTX `ptx`, and
    fails with a diagnostic that says why not, before any lowering could
    reach LLVM with an impossible target.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "the NVIDIA chip (sm_90, sm_100a, ...)">,
    Option<"ptx", "ptx", "int", /*default=*/"0",
           "PTX ISA version times ten (0: the chip's minimum)">,
  ];
}

def MXQAlignVectorAccesses
    : Pass<"mxq-align-vector-accesses", "::mlir::func::FuncOp"> {
  let summary = "Turn in-bounds contiguous vector transfers into aligned vector loads and stores";
  let description = [{
    Rewrites each unmasked, in-bounds 1-D `vector.transfer_read` /
    `vector.transfer_write` along the unit-stride last dimension of a memref
    of at most 256 bytes (NVPTX's register allocation takes tens of seconds
    on aligned kilobyte vectors)
    into `vector.load` / `vector.store` carrying the largest alignment (up
    to `base-alignment`) that the indices prove: the alignment of each
    index (constants, products, sums, loop induction variables, GPU ids)
    times its static stride. A dimension with a dynamic stride proves
    nothing unless its index is 0; so each `gpu.launch` whose accesses a
    dynamic stride keeps narrow is versioned: `scf.if` (every such stride
    is a multiple of `base-alignment` bytes) runs a copy of the launch in
    which the strides are taken to be aligned, else the original. The
    caller guarantees that every buffer
    starts at a multiple of `base-alignment` bytes (`cuMemAlloc` and
    `gpu.alloc` give 256). With alignment 16, NVPTX emits 128-bit
    `ld.global.v4` / `st.global.v4` instead of one access per element.
    The patterns are available as `mxq::populateAlignVectorAccessesPatterns`.
  }];
  let options = [
    Option<"baseAlignment", "base-alignment", "int64_t", /*default=*/"16",
           "bytes every buffer is aligned to (a power of two)">,
  ];
  let dependentDialects = ["::mlir::vector::VectorDialect"];
}

def MXQByteSizedMemory : Pass<"mxq-byte-sized-memory"> {
  let summary = "Access sub-byte integers in memory as whole bytes";
  let description = [{
    On the LLVM dialect: rewrites `llvm.store` of an integer narrower than
    a byte (FP4 and FP6 codes, which take one byte each in a memref) into a
    zero-extended `i8` store, and `llvm.load` of one into an `i8` load and a
    truncation. The bytes written are the same (the upper bits, which LLVM
    leaves unspecified, become 0), and LLVM no longer folds the codes into
    vectors of `i4`, which NVPTX legalises through local memory. The
    patterns are available as `mxq::populateByteSizedMemoryPatterns`.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def MXQBF16MemoryAsI16 : Pass<"mxq-bf16-memory-as-i16"> {
  let summary = "Load and store scalar bf16 values as i16";
  let description = [{
    On the LLVM dialect: rewrites every scalar `llvm.load` and `llvm.store`
    of `bf16` into one of `i16` (a store of a value bitcast from `i16` stores
    that `i16`; a load whose users only want the bits is not bitcast back).
    The bytes are the same. LLVM 22's x86 backend carries a scalar bfloat in
    an f32 register and rounds it back with a conversion that flushes
    subnormals, so without this a bf16 subnormal loaded or stored one
    element at a time (a block along a non-last axis) can become zero. The
    patterns are available as `mxq::populateBF16MemoryAsI16Patterns`.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def MXQGPUDeviceBuffers
    : Pass<"mxq-gpu-device-buffers", "::mlir::ModuleOp"> {
  let summary = "Allocate the buffers of host functions on the GPU";
  let description = [{
    After `gpu-kernel-outlining`: in every host function, replaces
    `memref.alloc` / `memref.dealloc` by `gpu.alloc` / `gpu.dealloc`, so the
    results of an mxq function live in device memory, as its arguments do,
    and a whole-buffer `memref.copy` (bufferization's copy of a value two
    results share) by `gpu.memcpy`.
    Fails with a diagnostic naming the op if any host code outside a kernel
    launch reads or writes a buffer (the host cannot touch device memory).
  }];
  let dependentDialects = ["::mlir::gpu::GPUDialect"];
}

#endif // MXQ_TRANSFORMS_PASSES_TD

//===- Passes.td - passes of the NVVM target ---------------*- tablegen -*-===//
#ifndef MXQ_TARGET_NVVM_PASSES_TD
#define MXQ_TARGET_NVVM_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertMXQToLoopsNVVM
    : Pass<"convert-mxq-to-loops-nvvm", "::mlir::ModuleOp"> {
  let summary = "convert-mxq-to-loops with an NVIDIA chip's native converts";
  let description = [{
    The shared expansion of `convert-mxq-to-loops` (the same patterns, the
    same numerics) given what the NVIDIA target adds: its conversion
    instructions (`nvvm.convert.f32x2.to.*`), where the target description
    (`mxq/Target/NVVM/NVGPU.h`) says `chip` has them and they are exact, and
    `dual_quantize` as two quantizes and a transpose (a GPU thread cannot
    hold the 32 x 32 tile of the fused form without spilling).

    With `coalesced` (the default), `quantize` and `dequantize` along the
    last axis with blocks of 32 become the target's own lane-cooperative
    kernels (`mxq/Target/NVVM/CoalescedKernels.h`): a `gpu.launch` in which
    each lane owns 16 bytes of a block, the block's absolute maximum is
    combined with `gpu.shuffle xor`, and a warp's accesses are contiguous.
    The per-block numbers come from the same builders as the shared
    expansion's.
  }];
  let options = [
    Option<"chip", "chip", "std::string", /*default=*/"\"sm_90\"",
           "the NVIDIA chip (sm_90, sm_100a, ...)">,
    Option<"ptx", "ptx", "int", /*default=*/"0",
           "PTX ISA version times ten (0: the chip's minimum)">,
    Option<"coalesced", "coalesced", "bool", /*default=*/"true",
           "quantize and dequantize along the last axis as lane-cooperative "
           "kernels (a block spread over the lanes of a warp); false: the "
           "shared expansion's thread per block">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::gpu::GPUDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::tensor::TensorDialect",
                           "::mlir::vector::VectorDialect",
                           "::mlir::linalg::LinalgDialect",
                           "::mlir::NVVM::NVVMDialect"];
}

def MXQCheckNVGPUTarget : Pass<"mxq-check-nvgpu-target", "::mlir::ModuleOp"> {
  let summary = "Reject an NVIDIA chip or PTX version that cannot express the request";
  let description = [{
    The first pass of `mxq-gpu-pipeline`: asks the target description
    (`mxq/Target/NVVM/NVGPU.h`) whether `chip` exists and accepts PTX `ptx`, and
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

def MXQWrapStraightLineInKernels
    : Pass<"mxq-wrap-straight-line-in-kernels", "::mlir::func::FuncOp"> {
  let summary = "Put memory accesses outside any parallel loop into a one-iteration scf.parallel";
  let description = [{
    Runs after `mxq-parallelize-loops` in the NVIDIA pipeline, whose
    parallel loops become kernels. Code that reads or writes memory outside
    any loop (what is left when canonicalization folds one-iteration block
    loops, e.g. a tensor that is a single block) is wrapped in a
    one-iteration `scf.parallel`, so that it runs on the device (as a
    one-thread kernel) like every other block instead of touching device
    buffers from the host. A run of such code ends at an allocation, a
    deallocation, an `scf.parallel`, a `gpu.launch` (or an op holding one)
    and a terminator. Values the run defines that are used after it must be
    free of side effects (they are hoisted above it); otherwise the run is
    left as it is.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
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

def MXQEmulateGPUKernels
    : Pass<"mxq-emulate-gpu-kernels", "::mlir::ModuleOp"> {
  let summary = "Compile the GPU kernels for the host, for the SIMT emulator";
  let description = [{
    Takes what `mxq-gpu-pipeline` has right before `gpu-module-to-binary`
    (host code in the LLVM dialect with `gpu.launch_func`, kernels in
    `gpu.module`s as `llvm.func` with NVVM ops) and makes one host module
    that the SIMT emulator (`mxq/Target/NVVM/SIMTEmulator.h`, target
    `nvvm-emu`) runs:

    - each kernel (and every function and global of its `gpu.module`) moves
      into the host module under a prefixed name; pointers of every address
      space become host pointers;
    - special registers (`nvvm.read.ptx.sreg.*`), `nvvm.barrier0`,
      `nvvm.shfl.sync`, shared-memory globals and the PTX converts
      (`nvvm.convert.f32x2.to.*`) become calls of the emulator's runtime (the
      converts its exact software models, `mxq/Target/NVVM/PTXConverts.h`);
    - every `llvm.load`, `llvm.store` and masked load or store is preceded by
      a call that checks it (bounds, alignment, shared-memory races) and
      measures it; the module attribute `mxq.emu.sites` describes each such
      site;
    - each `gpu.launch_func` becomes a call of `mxq_emu_launch` with a thunk
      that unpacks the kernel's arguments.

    An NVVM op or memory instruction the emulator does not model is an
    error naming it, so nothing runs unchecked.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def MXQPrepareWorkgroupMemory
    : Pass<"mxq-prepare-workgroup-memory", "::mlir::gpu::GPUModuleOp"> {
  let summary = "16-byte aligned workgroup buffers in NVVM's shared address space";
  let description = [{
    Two things the kernels' workgroup (shared) memory needs before LLVM:

    - `convert-gpu-to-nvvm` gives a workgroup attribution the alignment of
      its element type unless the attribution says otherwise (`llvm.align`):
      a byte buffer would be `.shared .align 1`, and the 128-bit accesses
      that `mxq-align-vector-accesses` proves from the indices (which assume
      every buffer 16-byte aligned) would fault. Every workgroup attribution
      without one gets `llvm.align = 16`.
    - `convert-vector-to-llvm`, which runs before `convert-gpu-to-nvvm`,
      does not know `#gpu.address_space<workgroup>` and leaves vector loads
      and stores of shared memory to the later pass with an error message
      per type; memref types in the module take NVVM's shared address space
      (3) instead, which both passes understand.
  }];
}

#endif // MXQ_TARGET_NVVM_PASSES_TD

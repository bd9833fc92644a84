//===- Passes.td - passes of the CPU target ----------------*- tablegen -*-===//
#ifndef MXQ_TARGET_CPU_PASSES_TD
#define MXQ_TARGET_CPU_PASSES_TD

include "mlir/Pass/PassBase.td"

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


def MXQInlineAllocaScopes : Pass<"mxq-inline-alloca-scopes"> {
  let summary = "Inline the alloca scopes of OpenMP loop bodies that allocate nothing";
  let description = [{
    `convert-scf-to-openmp` wraps every work-sharing loop body in a
    `memref.alloca_scope` (so that stack allocations of an iteration are
    freed), whose region must stay one block; `convert-scf-to-cf` then
    splits the loops inside it into blocks and the IR no longer verifies.
    mxq's loop bodies allocate nothing on the stack, so the scope is
    inlined; a scope that holds a `memref.alloca` is left alone.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def MXQForallToParallelFor : Pass<"mxq-forall-to-parallel-for"> {
  let summary = "scf.forall to scf.for loops marked parallel for the CPU";
  let description = [{
    Upstream's `scf-forall-to-for`, plus the `mxq.parallel` mark on the
    loops it creates when their iterations write disjoint bytes, so that
    `mxq-parallelize-loops` runs whole tiles on each thread (one OpenMP
    work-sharing loop over tiles, instead of one parallel region per tile
    around its block loops). A forall's iterations write disjoint elements
    by its semantics; with elements packed in memory (FP4 codes, two per
    byte along the last axis: `packed` in mxq/Support/ElementTypes.h) they
    write disjoint bytes when no tile starts inside a row: every subview of
    a packed memref in the body starts at column 0. Otherwise the loops are
    left unmarked (sequential). FP6 codes take a byte each.

    Runs after bufferization (the forall has no results) and before buffer
    deallocation, which leaves a forall body's allocations alone.
  }];
  let dependentDialects = ["::mlir::scf::SCFDialect"];
}

def MXQPrefetchLoads : Pass<"mxq-prefetch-loads"> {
  let summary = "Prefetch the memory of wide vector loads ahead of them";
  let description = [{
    On the LLVM dialect: before every vector load (`llvm.load` or
    `llvm.intr.masked.load`) of at least `min-bytes` bytes, one
    `llvm.intr.prefetch` (read, keep in all caches) per 64-byte line of
    the loaded bytes, `ahead` times the load's size further on. mxq's
    kernels read their input in wide vectors along rows (a quantize's
    four-block groups: 8 loads ahead is 2 KB for bf16, 4 KB for f32) or a
    tile's rows 64 bytes at a time (the dual: 8 tiles ahead along each
    row); with the line requests issued ahead of the arithmetic, a core
    keeps enough of them in flight to stream its input (the f32 MXFP8
    quantize 1.5x faster on the project's machine, the dual 10%;
    bench/RESULTS.md). A prefetch never faults, so addresses past the end
    of a buffer are harmless: the address is computed by a
    `getelementptr` without `inbounds`. Volatile loads are left alone. The
    patterns are available as `mxq::cpu::populatePrefetchLoadsPatterns`.
  }];
  let options = [
    Option<"ahead", "ahead", "int64_t", /*default=*/"8",
           "How far ahead to prefetch, in multiples of the load's size">,
    Option<"minBytes", "min-bytes", "int64_t", /*default=*/"64",
           "The smallest vector load (in bytes) to prefetch for">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // MXQ_TARGET_CPU_PASSES_TD

//===- VTileDialect.td - the vtile dialect -----------------*- tablegen -*-===//
//
// A model of an Ascend vector core (AIV) at the level of its instructions:
// GM and UB memory, DataCopyPad DMA, 256-byte "repeat" vector instructions
// on UB operands (the Membase model, `../shared/docs/ascend-model.md` §3.1),
// four in-order pipes and set/wait flags. The simulator
// (mxq/Target/Ascend/Simulator.h) executes it. The enums are in
// VTileEnums.td, the ops in VTileOps.td (as MXQ's ODS is split).
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_TARGET_ASCEND_VTILE_DIALECT_TD
#define MXQ_TARGET_ASCEND_VTILE_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"

def VTile_Dialect : Dialect {
  let name = "vtile";
  let cppNamespace = "::mxq::vtile";
  let summary = "The vector-tile model of an Ascend vector core.";
  let description = [{
    `vtile` states what an Ascend AI vector core (AIV) executes: DMA between
    global memory (GM) and the core's unified buffer (UB) with the
    parameters of `DataCopyPad`; vector instructions on UB operands that run
    in 256-byte repeats with block and repeat strides and a lane mask; and
    the four in-order pipes (`s`, `v`, `mte2`, `mte3`) ordered by
    `set_flag`/`wait_flag` and `pipe_barrier`.

    UB operands are byte addresses (`index`) inside the core's UB, made from
    the buffers `vtile.ub_buffer` declares; GM operands are memrefs in the
    `#vtile.space<gm>` memory space plus a byte offset. A kernel is a
    `func.func` marked `vtile.kernel`; it runs once on each of the
    `vtile.cores` cores of its launch, and `vtile.core_id` says which.

    The chip (`vtile.chip` on the module: `a2`, `950pr`, `950dt`, with any
    field overridden, e.g. `"950pr,ub-bytes=131072"`) decides what the
    verifiers accept: UB capacity, which casts exist, repeat and burst
    limits. docs/Rationale.md ("The Ascend-like target") has the model, its
    sources and what it leaves out.
  }];
  let useDefaultAttributePrinterParser = 1;
}

class VTile_Op<string mnemonic, list<Trait> traits = []>
    : Op<VTile_Dialect, mnemonic, traits>;

#endif // MXQ_TARGET_ASCEND_VTILE_DIALECT_TD

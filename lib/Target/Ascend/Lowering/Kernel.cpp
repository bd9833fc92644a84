//===- Kernel.cpp - the kernel frame: arguments, tile loop, end -----------===//
//
// The frame every kernel shares: its GM arguments and core loop, the
// double-buffered tile loop, the end of the kernel, and the diagnostics.
//
//===----------------------------------------------------------------------===//
#include "Lowering.h"

namespace mxq::vtile::lowering {

/// Makes `func` a kernel over the GM memrefs of `values` (the op's
/// operands, then its results) on `cores` cores.
Frame beginKernel(func::FuncOp func, ArrayRef<Value> values, int64_t cores) {
  MLIRContext *ctx = func.getContext();
  auto gm = MemorySpaceAttr::get(ctx, MemorySpace::gm);
  SmallVector<Type> args;
  for (Value v : values) {
    auto t = cast<RankedTensorType>(v.getType());
    args.push_back(MemRefType::get(t.getShape(), t.getElementType(),
                                   MemRefLayoutAttrInterface(), gm));
  }
  Frame f;
  f.old = &func.getBody().front();
  f.entry = new Block();
  for (Type t : args)
    f.entry->addArgument(t, func.getLoc());
  func.getBody().push_front(f.entry);
  func.setFunctionType(FunctionType::get(ctx, args, {}));
  func->setAttr(kKernelAttr, UnitAttr::get(ctx));
  func->setAttr(kCoresAttr, IntegerAttr::get(IntegerType::get(ctx, 64), cores));
  func->removeAttr("llvm.emit_c_interface");
  return f;
}

/// This core's run of `tiles` tiles, the flags that mark every buffer free,
/// and the loop; the builder is left in its body.
void openTileLoop(Emitter &e, Frame &f, int64_t tiles, int64_t cores,
                  bool doubleBuffer) {
  OpBuilder &b = e.b;
  f.depth = doubleBuffer ? 2 : 1;
  Value core = CoreIdOp::create(b, e.loc, b.getIndexType());
  Value t0 = e.div(e.mul(core, tiles), cores);
  Value t1 = e.div(e.mul(e.add(core, 1), tiles), cores);
  for (int64_t id = 0; id < f.depth; ++id) {
    e.flag(true, Pipe::v, Pipe::mte2, e.idx(id)); // input buffer free
    e.flag(true, Pipe::mte3, Pipe::v, e.idx(id)); // output buffers free
  }
  f.loop = scf::ForOp::create(b, e.loc, t0, t1, e.idx(1));
  b.setInsertionPointToStart(f.loop.getBody());
  f.t = f.loop.getInductionVar();
  f.pp = doubleBuffer ? e.rem(e.sub(f.t, t0), 2) : e.idx(0);
}

/// After the loop: every flag the prologue set waited for once more, the
/// return, and the old body erased.
void finishKernel(Emitter &e, Frame &f) {
  OpBuilder &b = e.b;
  b.setInsertionPointAfter(f.loop);
  for (int64_t id = 0; id < f.depth; ++id) {
    e.flag(false, Pipe::v, Pipe::mte2, e.idx(id));
    e.flag(false, Pipe::mte3, Pipe::v, e.idx(id));
  }
  func::ReturnOp::create(b, e.loc);
  f.old->dropAllDefinedValueUses();
  f.old->erase();
}

LogicalResult fail(func::FuncOp func, const Twine &why) {
  return func.emitError() << "convert-mxq-to-vtile: @" << func.getSymName()
                          << ": " << why;
}

/// Whether every operand and result of `op` has a static shape; a
/// diagnostic if not.
LogicalResult checkStaticShapes(func::FuncOp func, Operation *op) {
  auto isStatic = [](Value v) {
    return cast<RankedTensorType>(v.getType()).hasStaticShape();
  };
  if (llvm::all_of(op->getOperands(), isStatic) &&
      llvm::all_of(op->getResults(), isStatic))
    return success();
  return fail(func, "needs static shapes (mxq-run specialises a function "
                    "to its inputs' shapes before lowering it)");
}

} // namespace mxq::vtile::lowering

//===- Control.cpp - the scalar unit: control flow and integers -----------===//
#include "Machine.h"

namespace mxq::vtile::sim {

bool Simulator::runCore(func::FuncOp kernel, int64_t id, int64_t cores) {
  Core c;
  c.id = id;
  c.ub.assign(chip.ubBytes, 0);
  c.granules.assign((chip.ubBytes + 31) / 32, Granule());
  core = &c;
  numCores = cores;
  ints.clear();
  memrefs.clear();
  for (auto [i, arg] : llvm::enumerate(kernel.getArguments()))
    memrefs[arg] = int(i);
  if (!runBlock(kernel.getBody().front()))
    return false;
  double end = c.issue;
  for (int p = 0; p < 4; ++p) {
    end = std::max(end, c.lastDone[p]);
    report.busy[p] += c.busy[p];
  }
  report.cycles = std::max(report.cycles, end);
  return true;
}

bool Simulator::runBlock(Block &block) {
  for (Operation &op : block)
    if (!exec(&op))
      return false;
  return true;
}

bool Simulator::exec(Operation *op) {
  if (++report.instructions > chip.maxInstructions)
    return fail(op, "would be instruction " +
                        llvm::Twine(report.instructions) +
                        " of the kernel, past the simulator's budget of " +
                        llvm::Twine(chip.maxInstructions) +
                        " (a loop that does not end? the chip field "
                        "max-instructions sets the budget)");
  core->issue += 1; // the scalar unit issues one instruction a cycle (A)
  if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    auto i = dyn_cast<IntegerAttr>(c.getValue());
    if (!i)
      return fail(op, "is not an integer constant; the simulator's scalar "
                      "unit has integers only");
    ints[c.getResult()] = i.getValue().getSExtValue();
    return true;
  }
  if (isa<arith::AddIOp, arith::SubIOp, arith::MulIOp, arith::DivUIOp,
          arith::DivSIOp, arith::RemUIOp, arith::RemSIOp, arith::MinUIOp,
          arith::MinSIOp, arith::MaxUIOp, arith::MaxSIOp, arith::AndIOp,
          arith::OrIOp, arith::XOrIOp, arith::CeilDivUIOp, arith::CeilDivSIOp,
          arith::ShLIOp, arith::ShRUIOp>(op))
    return binaryInt(op);
  if (auto cmp = dyn_cast<arith::CmpIOp>(op))
    return compareInt(cmp);
  if (auto sel = dyn_cast<arith::SelectOp>(op)) {
    ints[sel.getResult()] = get(sel.getCondition())
                                ? get(sel.getTrueValue())
                                : get(sel.getFalseValue());
    return true;
  }
  if (auto cast = dyn_cast<arith::IndexCastOp>(op)) {
    ints[cast.getResult()] = wrap(get(cast.getIn()), cast.getType());
    return true;
  }
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    if (loop.getNumResults())
      return fail(op, "carries values; the simulator runs loops without "
                      "iter_args");
    int64_t lb = get(loop.getLowerBound()), ub = get(loop.getUpperBound()),
            step = get(loop.getStep());
    if (step <= 0)
      return fail(op, "has step " + llvm::Twine(step) +
                          "; a loop step must be positive");
    for (int64_t iv = lb; iv < ub; iv += step) {
      ints[loop.getInductionVar()] = iv;
      if (!runBlock(*loop.getBody()))
        return false;
    }
    return true;
  }
  if (auto branch = dyn_cast<scf::IfOp>(op)) {
    if (branch.getNumResults())
      return fail(op, "yields values; the simulator runs scf.if without "
                      "results");
    Region &r = get(branch.getCondition()) ? branch.getThenRegion()
                                           : branch.getElseRegion();
    return r.empty() || runBlock(r.front());
  }
  if (isa<scf::YieldOp, func::ReturnOp>(op))
    return true;
  if (auto id = dyn_cast<CoreIdOp>(op)) {
    ints[id.getResult()] = core->id;
    return true;
  }
  if (auto n = dyn_cast<CoreNumOp>(op)) {
    ints[n.getResult()] = numCores;
    return true;
  }
  if (auto b = dyn_cast<UBBufferOp>(op)) {
    ints[b.getAddress()] = b.getOffset();
    return true;
  }
  if (auto copy = dyn_cast<CopyGmToUbOp>(op))
    return copyIn(copy);
  if (auto copy = dyn_cast<CopyUbToGmOp>(op))
    return copyOut(copy);
  if (auto c = dyn_cast<SetCtrlOp>(op)) {
    // Seen by the vector instructions issued after it (a vector
    // instruction's lanes are computed at its issue).
    core->ctrlFP8SatNaN = c.getValue();
    return true;
  }
  if (auto s = dyn_cast<SetFlagOp>(op))
    return setFlag(s);
  if (auto w = dyn_cast<WaitFlagOp>(op))
    return waitFlag(w);
  if (auto b = dyn_cast<PipeBarrierOp>(op))
    return barrier(b);
  if (isa<VBinaryOp, VScalarOp, VUnaryOp, VDupOp, VCmpsOp, VCmpOp, VSelOp,
          VCastOp, VReduceGroupOp, VBroadcastGroupOp, VIndexOp, VGatherOp,
          VTransposeOp>(op))
    return vector(op);
  return fail(op, "is not an operation the simulator executes (it runs "
                  "vtile, scf.for/if and integer arith)");
}

bool Simulator::binaryInt(Operation *op) {
  Type t = op->getResult(0).getType();
  int64_t a = get(op->getOperand(0)), b = get(op->getOperand(1));
  uint64_t ua = unsignedOf(a, t), ub = unsignedOf(b, t);
  bool divides =
      isa<arith::DivUIOp, arith::DivSIOp, arith::RemUIOp, arith::RemSIOp,
          arith::CeilDivUIOp, arith::CeilDivSIOp>(op);
  if (divides && b == 0)
    return fail(op, "divides by zero");
  int64_t r =
      llvm::TypeSwitch<Operation *, int64_t>(op)
          .Case([&](arith::AddIOp) { return a + b; })
          .Case([&](arith::SubIOp) { return a - b; })
          .Case([&](arith::MulIOp) { return a * b; })
          .Case([&](arith::DivUIOp) { return int64_t(ua / ub); })
          .Case([&](arith::DivSIOp) { return a / b; })
          .Case([&](arith::RemUIOp) { return int64_t(ua % ub); })
          .Case([&](arith::RemSIOp) { return a % b; })
          .Case([&](arith::MinUIOp) { return int64_t(std::min(ua, ub)); })
          .Case([&](arith::MinSIOp) { return std::min(a, b); })
          .Case([&](arith::MaxUIOp) { return int64_t(std::max(ua, ub)); })
          .Case([&](arith::MaxSIOp) { return std::max(a, b); })
          .Case([&](arith::AndIOp) { return a & b; })
          .Case([&](arith::OrIOp) { return a | b; })
          .Case([&](arith::XOrIOp) { return a ^ b; })
          .Case(
              [&](arith::CeilDivUIOp) { return int64_t((ua + ub - 1) / ub); })
          .Case([&](arith::CeilDivSIOp) {
            int64_t q = a / b;
            return (a % b != 0 && ((a < 0) == (b < 0))) ? q + 1 : q;
          })
          .Case([&](arith::ShLIOp) {
            return ub >= 64 ? int64_t(0) : int64_t(ua << ub);
          })
          .Case([&](arith::ShRUIOp) {
            return ub >= 64 ? int64_t(0) : int64_t(ua >> ub);
          })
          .Default([](Operation *) { return int64_t(0); });
  ints[op->getResult(0)] = wrap(r, t);
  return true;
}

bool Simulator::compareInt(arith::CmpIOp cmp) {
  Type t = cmp.getLhs().getType();
  unsigned width = t.isIndex() ? 64 : t.getIntOrFloatBitWidth();
  // The values as the type's bits; upstream's predicate semantics.
  APInt a(width, unsignedOf(get(cmp.getLhs()), t)),
      b(width, unsignedOf(get(cmp.getRhs()), t));
  bool r = arith::applyCmpPredicate(cmp.getPredicate(), a, b);
  ints[cmp.getResult()] = r;
  return true;
}

} // namespace mxq::vtile::sim

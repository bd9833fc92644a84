//===- KnownMultiple.cpp - what an index is a multiple of -----------------===//
#include "mxq/Transforms/KnownMultiple.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

#include <numeric>

using namespace mlir;

namespace {

uint64_t gcd(uint64_t a, uint64_t b) { return std::gcd(a, b); }

/// knownMultiple of an affine expression over `dims` and `syms`.
uint64_t exprMultiple(AffineExpr e, ValueRange dims, ValueRange syms,
                      int depth) {
  if (auto c = dyn_cast<AffineConstantExpr>(e))
    return static_cast<uint64_t>(c.getValue() < 0 ? -c.getValue()
                                                  : c.getValue());
  if (auto d = dyn_cast<AffineDimExpr>(e))
    return mxq::knownMultiple(dims[d.getPosition()], depth);
  if (auto s = dyn_cast<AffineSymbolExpr>(e))
    return mxq::knownMultiple(syms[s.getPosition()], depth);
  auto bin = cast<AffineBinaryOpExpr>(e);
  uint64_t l = exprMultiple(bin.getLHS(), dims, syms, depth);
  uint64_t r = exprMultiple(bin.getRHS(), dims, syms, depth);
  switch (e.getKind()) {
  case AffineExprKind::Add:
    return gcd(l, r);
  case AffineExprKind::Mul:
    return l * r;
  default:
    return 1;
  }
}

} // namespace

uint64_t mxq::knownMultiple(Value v, int depth) {
  if (depth == 0)
    return 1;
  if (auto c = getConstantIntValue(v))
    return static_cast<uint64_t>(*c < 0 ? -*c : *c);
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (auto loop = dyn_cast_if_present<scf::ForOp>(owner))
      if (arg == loop.getInductionVar())
        return gcd(knownMultiple(loop.getLowerBound(), depth - 1),
                   knownMultiple(loop.getStep(), depth - 1));
    if (auto loop = dyn_cast_if_present<scf::ParallelOp>(owner)) {
      auto ivs = loop.getInductionVars();
      for (unsigned i = 0; i < ivs.size(); ++i)
        if (arg == ivs[i])
          return gcd(knownMultiple(loop.getLowerBound()[i], depth - 1),
                     knownMultiple(loop.getStep()[i], depth - 1));
    }
    return 1;
  }
  Operation *def = v.getDefiningOp();
  if (auto mul = dyn_cast<arith::MulIOp>(def))
    return knownMultiple(mul.getLhs(), depth - 1) *
           knownMultiple(mul.getRhs(), depth - 1);
  if (isa<arith::AddIOp, arith::SubIOp>(def))
    return gcd(knownMultiple(def->getOperand(0), depth - 1),
               knownMultiple(def->getOperand(1), depth - 1));
  if (auto shl = dyn_cast<arith::ShLIOp>(def))
    if (auto amount = getConstantIntValue(shl.getRhs()))
      if (*amount >= 0 && *amount < 32)
        return knownMultiple(shl.getLhs(), depth - 1) << *amount;
  // A shift right by a constant (FP4's byte column, col >> 1) keeps what
  // the shifted-out bits leave.
  if (auto shr = dyn_cast<arith::ShRUIOp>(def))
    if (auto amount = getConstantIntValue(shr.getRhs()))
      if (*amount >= 0 && *amount < 32) {
        uint64_t m = knownMultiple(shr.getLhs(), depth - 1);
        uint64_t unit = uint64_t(1) << *amount;
        return m != 0 && m % unit == 0 ? m / unit : (m == 0 ? 0 : 1);
      }
  if (isa<arith::IndexCastOp, arith::IndexCastUIOp>(def))
    return knownMultiple(def->getOperand(0), depth - 1);
  if (auto apply = dyn_cast<affine::AffineApplyOp>(def)) {
    AffineMap map = apply.getAffineMap();
    ValueRange operands = apply.getMapOperands();
    return exprMultiple(map.getResult(0), operands.take_front(map.getNumDims()),
                        operands.drop_front(map.getNumDims()), depth - 1);
  }
  return 1;
}

//===- IndexExpr.h - index arithmetic that emits IR -------------*- C++ -*-===//
//
// An `index` value with C++ operators that emit arith ops, so that a rule
// written once as a template over an integer domain (the scale layouts'
// offsets in mxq/Support/ScaleLayout.h) is evaluated by the reference on
// int64_t and emitted as IR by the lowerings from the same text. Operands
// are non-negative (offsets and sizes): division and remainder are
// unsigned. Header-only; needs the arith dialect.
//
//===----------------------------------------------------------------------===//
#ifndef MXQ_CONVERSION_INDEXEXPR_H
#define MXQ_CONVERSION_INDEXEXPR_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"

namespace mxq {

class IndexExpr {
public:
  IndexExpr(mlir::OpBuilder &b, mlir::Location loc, mlir::Value v)
      : b(&b), loc(loc), v(v) {}
  /// The constant `c` built where `like` builds.
  static IndexExpr constant(const IndexExpr &like, int64_t c) {
    return {*like.b, like.loc,
            mlir::arith::ConstantIndexOp::create(*like.b, like.loc, c)};
  }
  mlir::Value value() const { return v; }
  operator mlir::Value() const { return v; }

  friend IndexExpr operator+(const IndexExpr &x, const IndexExpr &y) {
    return x.with(mlir::arith::AddIOp::create(*x.b, x.loc, x.v, y.v));
  }
  friend IndexExpr operator*(const IndexExpr &x, const IndexExpr &y) {
    return x.with(mlir::arith::MulIOp::create(*x.b, x.loc, x.v, y.v));
  }
  friend IndexExpr operator+(const IndexExpr &x, int64_t c) {
    return x + constant(x, c);
  }
  friend IndexExpr operator*(const IndexExpr &x, int64_t c) {
    return x * constant(x, c);
  }
  friend IndexExpr operator/(const IndexExpr &x, int64_t c) {
    return x.with(
        mlir::arith::DivUIOp::create(*x.b, x.loc, x.v, constant(x, c).v));
  }
  friend IndexExpr operator%(const IndexExpr &x, int64_t c) {
    return x.with(
        mlir::arith::RemUIOp::create(*x.b, x.loc, x.v, constant(x, c).v));
  }

private:
  IndexExpr with(mlir::Value r) const { return {*b, loc, r}; }
  mlir::OpBuilder *b;
  mlir::Location loc;
  mlir::Value v;
};

} // namespace mxq

#endif // MXQ_CONVERSION_INDEXEXPR_H

//===- ElementwiseOps.cpp - lane-wise vector instructions -----------------===//
//
// One handler per lane-wise vector op (vbinary, vscalar, vunary, vdup,
// vcmps, vcmp, vsel, vcast): the operands and granules it touches, its
// occupancy, and what it computes, lane by lane through Lanes.h.
//
//===----------------------------------------------------------------------===//
#include "Machine.h"
#include "mxq/Target/Ascend/Lanes.h"

namespace mxq::vtile::sim {

bool Simulator::issue(VBinaryOp v, Issue &is) {
  Operation *op = v;
  int64_t lanes = lanesOf({v.getType()}), r = get(v.getRepeat());
  int64_t active = v.getMask().value_or(lanes);
  SmallVector<Operand> o = {operand(v.getDst(), v.getType(), lanes),
                            operand(v.getLhs(), v.getType(), lanes),
                            operand(v.getRhs(), v.getType(), lanes)};
  strides(v, o);
  if (!checkRepeat(op, r) ||
      !touchOperand(op, o[1], r, active, false, is.accesses) ||
      !touchOperand(op, o[2], r, active, false, is.accesses) ||
      !touchOperand(op, o[0], r, active, true, is.accesses))
    return false;
  is.occupancy = r * chip.vecCyclesPerRepeat;
  is.compute = [=, this, kind = v.getKind()]() {
    bool dz = false;
    for (int64_t i = 0; i < r; ++i)
      for (int64_t l = 0; l < active; ++l)
        store(o[0], i, l,
              lanes::binary(kind, o[0].type, load(o[1], i, l), load(o[2], i, l),
                            dz));
  };
  return true;
}

bool Simulator::issue(VScalarOp v, Issue &is) {
  Operation *op = v;
  int64_t lanes = lanesOf({v.getType()}), r = get(v.getRepeat());
  int64_t active = v.getMask().value_or(lanes);
  SmallVector<Operand> o = {operand(v.getDst(), v.getType(), lanes),
                            operand(v.getSrc(), v.getType(), lanes)};
  strides(v, o);
  if (!checkRepeat(op, r) ||
      !touchOperand(op, o[1], r, active, false, is.accesses) ||
      !touchOperand(op, o[0], r, active, true, is.accesses))
    return false;
  LT t = o[0].type;
  uint32_t s = isFloat(t) ? bitsOfFloat(float(scalarValue(v.getScalar())), t)
                          : bitsOfInt(scalarInt(v.getScalar()), t);
  is.occupancy = r * chip.vecCyclesPerRepeat;
  is.compute = [=, this, kind = v.getKind()]() {
    bool dz = false;
    for (int64_t i = 0; i < r; ++i)
      for (int64_t l = 0; l < active; ++l)
        store(o[0], i, l, lanes::binary(kind, t, load(o[1], i, l), s, dz));
  };
  return true;
}

bool Simulator::issue(VUnaryOp v, Issue &is) {
  Operation *op = v;
  int64_t lanes = lanesOf({v.getType()}), r = get(v.getRepeat());
  int64_t active = v.getMask().value_or(lanes);
  SmallVector<Operand> o = {operand(v.getDst(), v.getType(), lanes),
                            operand(v.getSrc(), v.getType(), lanes)};
  strides(v, o);
  if (!checkRepeat(op, r) ||
      !touchOperand(op, o[1], r, active, false, is.accesses) ||
      !touchOperand(op, o[0], r, active, true, is.accesses))
    return false;
  is.occupancy = r * chip.vecCyclesPerRepeat;
  is.compute = [=, this, kind = v.getKind()]() {
    LT t = o[0].type;
    for (int64_t i = 0; i < r; ++i)
      for (int64_t l = 0; l < active; ++l) {
        uint32_t res = lanes::unary(kind, t, load(o[1], i, l));
        store(o[0], i, l, res);
      }
  };
  return true;
}

bool Simulator::issue(VDupOp v, Issue &is) {
  Operation *op = v;
  int64_t lanes = lanesOf({v.getType()}), r = get(v.getRepeat());
  int64_t active = v.getMask().value_or(lanes);
  SmallVector<Operand> o = {operand(v.getDst(), v.getType(), lanes)};
  strides(v, o);
  if (!checkRepeat(op, r) ||
      !touchOperand(op, o[0], r, active, true, is.accesses))
    return false;
  LT t = o[0].type;
  uint32_t s = isFloat(t) ? bitsOfFloat(float(scalarValue(v.getScalar())), t)
                          : bitsOfInt(scalarInt(v.getScalar()), t);
  is.occupancy = r * chip.vecCyclesPerRepeat;
  is.compute = [=, this]() {
    for (int64_t i = 0; i < r; ++i)
      for (int64_t l = 0; l < active; ++l)
        store(o[0], i, l, s);
  };
  return true;
}

bool Simulator::issue(VCmpsOp v, Issue &is) {
  Operation *op = v;
  int64_t lanes = lanesOf({v.getType()}), r = get(v.getRepeat());
  int64_t active = v.getMask().value_or(lanes);
  Operand src = operand(v.getSrc(), v.getType(), lanes);
  int64_t dst = get(v.getDst());
  if (!checkRepeat(op, r) || !aligned(op, dst, "a destination") ||
      !touchOperand(op, src, r, active, false, is.accesses) ||
      !touch(op, dst, dst + r * lanes / 8, true, is.accesses))
    return false;
  double s = scalarValue(v.getScalar());
  is.occupancy = r * chip.vecCyclesPerRepeat;
  is.compute = [=, this, p = v.getPredicate()]() {
    for (int64_t i = 0; i < r; ++i)
      for (int64_t l = 0; l < lanes; ++l) {
        uint8_t &byte = core->ub[dst + i * lanes / 8 + l / 8];
        bool bit =
            l < active && lanes::compare(p, src.type, load(src, i, l), s);
        byte = uint8_t((byte & ~(1u << (l % 8))) | (unsigned(bit) << (l % 8)));
      }
  };
  return true;
}

bool Simulator::issue(VCmpOp v, Issue &is) {
  Operation *op = v;
  int64_t lanes = lanesOf({v.getType()}), r = get(v.getRepeat());
  int64_t active = v.getMask().value_or(lanes);
  Operand lhs = operand(v.getLhs(), v.getType(), lanes);
  Operand rhs = operand(v.getRhs(), v.getType(), lanes);
  int64_t dst = get(v.getDst());
  if (!checkRepeat(op, r) || !aligned(op, dst, "a destination") ||
      !touchOperand(op, lhs, r, active, false, is.accesses) ||
      !touchOperand(op, rhs, r, active, false, is.accesses) ||
      !touch(op, dst, dst + r * lanes / 8, true, is.accesses))
    return false;
  is.occupancy = r * chip.vecCyclesPerRepeat;
  is.compute = [=, this, p = v.getPredicate()]() {
    LT t = lhs.type;
    for (int64_t i = 0; i < r; ++i)
      for (int64_t l = 0; l < lanes; ++l) {
        uint8_t &byte = core->ub[dst + i * lanes / 8 + l / 8];
        bool bit = false;
        if (l < active) {
          uint32_t b = load(rhs, i, l);
          double s = isFloat(t)    ? double(floatOf(b, t))
                     : isSigned(t) ? double(intOf(b, t))
                                   : double(b);
          bit = lanes::compare(p, t, load(lhs, i, l), s);
        }
        byte = uint8_t((byte & ~(1u << (l % 8))) | (unsigned(bit) << (l % 8)));
      }
  };
  return true;
}

bool Simulator::issue(VSelOp v, Issue &is) {
  Operation *op = v;
  int64_t lanes = lanesOf({v.getType()}), r = get(v.getRepeat());
  int64_t active = v.getMask().value_or(lanes);
  Operand d = operand(v.getDst(), v.getType(), lanes),
          a = operand(v.getLhs(), v.getType(), lanes),
          b = operand(v.getRhs(), v.getType(), lanes);
  int64_t m = get(v.getSelMask());
  if (!checkRepeat(op, r) || !aligned(op, m, "a mask") ||
      !touch(op, m, m + r * lanes / 8, false, is.accesses) ||
      !touchOperand(op, a, r, active, false, is.accesses) ||
      !touchOperand(op, b, r, active, false, is.accesses) ||
      !touchOperand(op, d, r, active, true, is.accesses))
    return false;
  is.occupancy = r * chip.vecCyclesPerRepeat;
  is.compute = [=, this]() {
    for (int64_t i = 0; i < r; ++i)
      for (int64_t l = 0; l < active; ++l) {
        bool bit = (core->ub[m + i * lanes / 8 + l / 8] >> (l % 8)) & 1;
        store(d, i, l, bit ? load(a, i, l) : load(b, i, l));
      }
  };
  return true;
}

bool Simulator::issue(VCastOp v, Issue &is) {
  Operation *op = v;
  int64_t lanes = lanesOf({v.getSrcType(), v.getDstType()}),
          r = get(v.getRepeat());
  int64_t active = v.getMask().value_or(lanes);
  SmallVector<Operand> o = {operand(v.getDst(), v.getDstType(), lanes),
                            operand(v.getSrc(), v.getSrcType(), lanes)};
  strides(v, o);
  if (!checkRepeat(op, r) ||
      !touchOperand(op, o[1], r, active, false, is.accesses) ||
      !touchOperand(op, o[0], r, active, true, is.accesses))
    return false;
  is.occupancy = r * chip.vecCyclesPerRepeat;
  is.compute = [=, this, round = v.getRound(), sat = v.getSat(),
                satNaN = core->ctrlFP8SatNaN]() {
    for (int64_t i = 0; i < r; ++i)
      for (int64_t l = 0; l < active; ++l)
        store(o[0], i, l,
              lanes::cast(o[1].type, o[0].type, round, sat, load(o[1], i, l),
                          satNaN));
  };
  return true;
}

} // namespace mxq::vtile::sim
